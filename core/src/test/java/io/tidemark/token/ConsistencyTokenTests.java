package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.RandomGtids;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConsistencyTokenTests {

  private static final Instant T0 = Instant.parse("2025-11-29T10:00:00Z");
  private static final String A = RandomGtids.UUIDS[0];

  static LongStream seeds() {
    return LongStream.range(0, 10);
  }

  /** Random tokens of one cluster, with random issue times, some of them markers. */
  static ConsistencyToken randomToken(RandomGtids gtids, SplittableRandom random) {
    ConsistencyToken token =
        ConsistencyToken.of("orders", gtids.nextSet(), T0.plusSeconds(random.nextInt(1000)));
    return random.nextInt(5) == 0 ? token.requiringSource() : token;
  }

  /** A check on one draw of tokens and GTID sets from a seed's generators. */
  @FunctionalInterface
  interface Draw {
    void check(RandomGtids gtids, SplittableRandom random);
  }

  /** Runs {@code draw} on 100 draws from {@code seed}'s generators. */
  static void forEachDraw(long seed, Draw draw) {
    RandomGtids gtids = new RandomGtids(seed, true);
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 100; i++) {
      draw.check(gtids, random);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mergesCommutativelyAssociativelyAndIdempotently(long seed) {
    forEachDraw(
        seed,
        (gtids, random) -> {
          ConsistencyToken a = randomToken(gtids, random);
          ConsistencyToken b = randomToken(gtids, random);
          ConsistencyToken c = randomToken(gtids, random);

          assertThat(a.merge(b)).isEqualTo(b.merge(a));
          assertThat(a.merge(b).merge(c)).isEqualTo(a.merge(b.merge(c)));
          assertThat(a.merge(a)).isEqualTo(a);
          assertThat(a.merge(b).gtids()).isEqualTo(a.gtids().union(b.gtids()));
        });
  }

  @Test
  void mergeKeepsTheLaterIssueTimeAndTheMarker() {
    ConsistencyToken a = ConsistencyToken.of("orders", GtidSet.parse(A + ":1-3"), T0);
    ConsistencyToken b =
        ConsistencyToken.of("orders", GtidSet.parse(A + ":5"), T0.plusSeconds(60))
            .requiringSource();

    ConsistencyToken merged = a.merge(b);

    assertThat(merged.issuedAt()).isEqualTo(T0.plusSeconds(60));
    assertThat(merged.gtids()).hasToString(A + ":1-3:5");
    assertThat(merged.requiresSource()).isTrue();
  }

  @Test
  void refusesToMergeTokensOfDifferentClusters() {
    ConsistencyToken orders = ConsistencyToken.of("orders", GtidSet.EMPTY, T0);
    ConsistencyToken payments = ConsistencyToken.of("payments", GtidSet.EMPTY, T0);

    assertThatThrownBy(() -> orders.merge(payments))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("orders")
        .hasMessageContaining("payments");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void compactedTokenIsSatisfiedOnlyByStatesThatSatisfyTheOriginal(long seed) {
    forEachDraw(
        seed,
        (gtids, random) -> {
          ConsistencyToken token = randomToken(gtids, random);
          GtidSet source = gtids.nextSet();
          GtidSet state = gtids.nextSet();

          ConsistencyToken compacted = token.compact(source);

          if (state.containsAll(compacted.gtids())) {
            assertThat(state.containsAll(token.gtids())).isTrue();
          }
          assertThat(compacted.gtids().containsAll(token.gtids())).isTrue();
          assertThat(token.gtids().union(source).containsAll(compacted.gtids()))
              .as("reachable: adds only what the source executed")
              .isTrue();
          assertThat(compacted.gtids().intervalCount())
              .isLessThanOrEqualTo(token.gtids().intervalCount());
          assertThat(compacted.requiresSource()).isEqualTo(token.requiresSource());
          assertThat(compacted.issuedAt()).isEqualTo(token.issuedAt());
        });
  }

  @Test
  void compactionAgainstTheSourceKeepsALongSessionToOneIntervalPerSource() {
    ConsistencyToken token = ConsistencyToken.of("orders", GtidSet.EMPTY, T0);
    StringBuilder executed = new StringBuilder(A + ":1-");
    for (long gno = 10; gno <= 10_000; gno += 7) {
      token = token.merge(ConsistencyToken.of("orders", GtidSet.parse(A + ":" + gno), T0));
      executed.setLength(A.length() + 3);
      executed.append(gno + 3);
      token = token.compact(GtidSet.parse(executed));
    }

    assertThat(token.gtids()).hasToString(A + ":10-9999");
  }

  @Test
  void compactionLeavesGapsTheSourceHasNotExecuted() {
    ConsistencyToken token = ConsistencyToken.of("orders", GtidSet.parse(A + ":5:9:20"), T0);

    assertThat(token.compact(GtidSet.parse(A + ":1-10")).gtids()).hasToString(A + ":5-9:20");
    assertThat(token.compact(GtidSet.EMPTY)).isSameAs(token);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-orders", "or ders", "orders,x", "orders=x", "ö"})
  void refusesClusterNamesThatCannotTravelInAHeader(String cluster) {
    assertThatThrownBy(() -> ConsistencyToken.of(cluster, GtidSet.EMPTY, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void acceptsClusterNamesOfLettersDigitsAndPunctuationUpToTheLimit() {
    String longest = "c".repeat(ConsistencyToken.MAX_CLUSTER_LENGTH);

    assertThat(ConsistencyToken.of("eu-west_1.orders", GtidSet.EMPTY, T0).cluster())
        .isEqualTo("eu-west_1.orders");
    assertThat(ConsistencyToken.of(longest, GtidSet.EMPTY, T0).cluster()).isEqualTo(longest);
    assertThatThrownBy(() -> ConsistencyToken.of(longest + "c", GtidSet.EMPTY, T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void keepsTheIssueTimeToTheSecond() {
    ConsistencyToken token =
        ConsistencyToken.of("orders", GtidSet.EMPTY, T0.plusMillis(999).plusNanos(5));

    assertThat(token.issuedAt()).isEqualTo(T0);
  }
}

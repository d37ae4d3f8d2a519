package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSetFormatException.Problem;
import io.tidemark.RandomGtids.Sample;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties of parsing and set algebra, each checked on many random sets against {@link
 * GtidModel}; a failure names the seed, which replays it.
 */
class GtidSetAlgebraTests {

  private static final int CASES_PER_SEED = 100;

  static LongStream seeds() {
    return LongStream.range(0, 20);
  }

  /** Runs {@code check} {@value #CASES_PER_SEED} times on the sets {@code seed} draws. */
  private static void forEachCase(long seed, Consumer<RandomGtids> check) {
    RandomGtids random = new RandomGtids(seed, true);
    for (int i = 0; i < CASES_PER_SEED; i++) {
      check.accept(random);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void normalizesAnyTextToWhatTheModelPrints(long seed) {
    forEachCase(
        seed,
        random -> {
          Sample sample = random.next();
          GtidSet set = GtidSet.parse(sample.text());

          assertThat(set).as(sample.text()).hasToString(sample.model().canonical());
          assertThat(GtidSet.parse(set.toString())).isEqualTo(set).hasSameHashCodeAs(set);
          assertThat(set.toSingleLineString())
              .doesNotContain("\n")
              .isEqualTo(sample.model().canonical().replace(",\n", ","));
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void readsBackWhatItWritesInBinaryAndRefusesTheBytesCutShort(long seed) {
    forEachCase(
        seed,
        random -> {
          GtidSet set = random.nextSet();
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          set.writeBinary(out);
          byte[] bytes = out.toByteArray();

          ByteBuffer in = ByteBuffer.wrap(bytes);
          assertThat(GtidSet.readBinary(in, 64, 1024)).isEqualTo(set);
          assertThat(in.hasRemaining()).isFalse();
          if (set != GtidSet.EMPTY) {
            ByteBuffer cut = ByteBuffer.wrap(bytes, 0, bytes.length - 1);
            assertThatThrownBy(() -> GtidSet.readBinary(cut, 64, 1024))
                .isInstanceOfSatisfying(
                    GtidSetFormatException.class,
                    e -> assertThat(e.reason()).isEqualTo(Problem.MALFORMED));
          }
        });
  }

  @Test
  void refusesBinarySetsOverTheLimitsBeforeReadingTheirIntervals() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GtidSet.parse(RandomGtids.UUIDS[0] + ":1:3:5," + RandomGtids.UUIDS[1] + ":1").writeBinary(out);
    byte[] bytes = out.toByteArray();

    assertThatThrownBy(() -> GtidSet.readBinary(ByteBuffer.wrap(bytes), 1, 1024))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class,
            e -> assertThat(e.reason()).isEqualTo(Problem.TOO_MANY_UUIDS));
    assertThatThrownBy(() -> GtidSet.readBinary(ByteBuffer.wrap(bytes), 2, 2))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class,
            e -> assertThat(e.reason()).isEqualTo(Problem.TOO_MANY_INTERVALS));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void computesUnionSubtractionIntersectionAndContainmentAsTheModel(long seed) {
    forEachCase(
        seed,
        random -> {
          Sample a = random.next();
          Sample b = random.next();
          GtidSet x = GtidSet.parse(a.text());
          GtidSet y = GtidSet.parse(b.text());
          String inputs = a.text() + " | " + b.text();

          assertThat(x.union(y)).as(inputs).hasToString(a.model().union(b.model()).canonical());
          assertThat(x.subtract(y))
              .as(inputs)
              .hasToString(a.model().subtract(b.model()).canonical());
          assertThat(x.intersection(y))
              .as(inputs)
              .hasToString(a.model().intersection(b.model()).canonical());
          assertThat(x.containsAll(y)).as(inputs).isEqualTo(a.model().containsAll(b.model()));
          assertThat(x.union(y).containsAll(x)).isTrue();
          assertThat(x.containsAll(x.intersection(y))).isTrue();
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void obeysTheLawsOfSets(long seed) {
    forEachCase(
        seed,
        random -> {
          GtidSet x = random.nextSet();
          GtidSet y = random.nextSet();
          GtidSet z = random.nextSet();

          assertThat(x.union(y)).isEqualTo(y.union(x));
          assertThat(x.union(y).union(z)).isEqualTo(x.union(y.union(z)));
          assertThat(x.union(x)).isEqualTo(x);
          assertThat(x.intersection(y)).isEqualTo(y.intersection(x));
          assertThat(x.subtract(y).union(x.intersection(y))).isEqualTo(x);
          assertThat(x.subtract(y).intersection(y)).isEqualTo(GtidSet.EMPTY);
          assertThat(x.union(y).subtract(y)).isEqualTo(x.subtract(y));
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void fillsOnlyGapsTheKnownStateHoldsNeverAddingIntervals(long seed) {
    forEachCase(
        seed,
        random -> {
          GtidSet required = random.nextSet();
          GtidSet known = random.nextSet();

          GtidSet filled = required.fillGaps(known);

          assertThat(filled.containsAll(required)).isTrue();
          assertThat(required.union(known).containsAll(filled))
              .as("adds only known GTIDs")
              .isTrue();
          assertThat(filled.intervalCount()).isLessThanOrEqualTo(required.intervalCount());
          assertThat(filled.uuids()).isEqualTo(required.uuids());
          assertThat(filled.fillGaps(known)).isEqualTo(filled);
        });
  }

  @Test
  void fillsAGapOnlyWhenTheKnownStateHoldsAllOfIt() {
    String uuid = RandomGtids.UUIDS[0];
    GtidSet required = GtidSet.parse(uuid + ":5:17:33:41");
    GtidSet known = GtidSet.parse(uuid + ":1-20:30-35");

    assertThat(required.fillGaps(known)).hasToString(uuid + ":5-17:33:41");
    assertThat(required.fillGaps(GtidSet.parse(uuid + ":1-100"))).hasToString(uuid + ":5-41");
    assertThat(required.fillGaps(GtidSet.EMPTY)).isEqualTo(required);
  }

  @Test
  void namesOnlySourcesOfComparesUuidsWithTheirTags() {
    String a = RandomGtids.UUIDS[0];
    String b = RandomGtids.UUIDS[1];
    GtidSet executed = GtidSet.parse(a + ":1-9:batch:1-3, " + b + ":4");

    assertThat(GtidSet.parse(a + ":100").namesOnlySourcesOf(executed)).isTrue();
    assertThat(GtidSet.parse(a + ":batch:50, " + b + ":9").namesOnlySourcesOf(executed)).isTrue();
    assertThat(GtidSet.EMPTY.namesOnlySourcesOf(executed)).isTrue();
    assertThat(GtidSet.parse(a + ":other:1").namesOnlySourcesOf(executed)).isFalse();
    assertThat(GtidSet.parse(b + ":batch:1").namesOnlySourcesOf(executed)).isFalse();
    assertThat(GtidSet.parse(RandomGtids.UUIDS[2] + ":1").namesOnlySourcesOf(executed)).isFalse();
    assertThat(executed.hasTags()).isTrue();
    assertThat(GtidSet.parse(a + ":1").hasTags()).isFalse();
  }

  @Test
  void handlesGnosAtTheTopOfTheRange() {
    String uuid = RandomGtids.UUIDS[0];
    GtidSet top = GtidSet.parse(uuid + ":9223372036854775800-9223372036854775806");
    GtidSet below = GtidSet.parse(uuid + ":1-9223372036854775799");

    assertThat(top.union(below)).hasToString(uuid + ":1-9223372036854775806");
    assertThat(top.union(below).subtract(top)).isEqualTo(below);
    assertThat(top.union(below).containsAll(top)).isTrue();
    assertThat(below.fillGaps(top.union(below)).union(top))
        .hasToString(uuid + ":1-9223372036854775806");
  }

  @Test
  void treatsEmptySetsAsIdentities() {
    GtidSet x = GtidSet.parse(RandomGtids.UUIDS[1] + ":1-3:7");

    assertThat(x.union(GtidSet.EMPTY)).isSameAs(x);
    assertThat(GtidSet.EMPTY.union(x)).isSameAs(x);
    assertThat(x.subtract(GtidSet.EMPTY)).isSameAs(x);
    assertThat(GtidSet.EMPTY.subtract(x)).isEqualTo(GtidSet.EMPTY);
    assertThat(x.intersection(GtidSet.EMPTY)).isEqualTo(GtidSet.EMPTY);
    assertThat(x.containsAll(GtidSet.EMPTY)).isTrue();
    assertThat(GtidSet.EMPTY.containsAll(x)).isFalse();
  }
}

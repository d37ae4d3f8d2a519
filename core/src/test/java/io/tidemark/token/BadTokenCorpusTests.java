package io.tidemark.token;

import static io.tidemark.token.BadTokens.codec;
import static io.tidemark.token.BadTokens.flipFirstMacCharacter;
import static io.tidemark.token.BadTokens.hundredThousandIntervals;
import static io.tidemark.token.BadTokens.sign;
import static io.tidemark.token.BadTokens.tenThousandUuids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.MutableClock;
import io.tidemark.token.TokenRejectedException.Check;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The token cases of the design's failure catalogue, through the two calls a server makes on a
 * request's header: {@link TokenCodec#parseHeader} then {@link TokenCodec#verify(ConsistencyHeader,
 * String)}. Once with the default limits, as an application runs, and once with length limits large
 * enough that the count limits behind them are reached.
 *
 * <p>The same cases as the starter's HTTP corpus ({@code BadTokenCorpus}), made the same way
 * ({@link BadTokens}); the checks of single steps are in {@link TokenCodecTests} and {@link
 * ConsistencyHeaderTests}. Unknown source UUIDs and GNOs ahead of the source verify here: only the
 * reader, which knows the cluster, refuses them.
 */
class BadTokenCorpusTests {

  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final String CLUSTER = "shop";
  private static final String SOURCE = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final KeyRing RING = ring("k1", 's');

  private static final TokenCodec DEFAULTS = codec(RING, NOW);
  private static final TokenCodec ROOMY =
      new TokenCodec(
          TokenConfig.builder(RING)
              .clock(new MutableClock(NOW))
              .maxHeaderLength(50_000_000)
              .maxTokenLength(50_000_000)
              .build());
  private static final TokenCodec UNLIMITED_SIGNER = BadTokens.unlimited(RING, NOW);

  /** A header value and what each verifier makes of it: a rejection or the token's GTIDs. */
  record Case(
      String name,
      Supplier<@Nullable String> header,
      @Nullable Check atDefaults,
      @Nullable Check roomy) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> corpus() {
    return Stream.of(
        new Case("missing", () -> null, null, null),
        new Case("empty", () -> "", null, null),
        new Case(
            "malformed",
            () -> entry("v1.k1.bm90LWEtdG9rZW4.not-a-signature"),
            Check.MALFORMED,
            Check.MALFORMED),
        new Case(
            "wrong MAC",
            () -> entry(flipFirstMacCharacter(sign(DEFAULTS, CLUSTER, SOURCE + ":1-3"))),
            Check.BAD_SIGNATURE,
            Check.BAD_SIGNATURE),
        new Case(
            "unknown key id",
            () -> entry(sign(codec(ring("k9", 'o'), NOW), CLUSTER, SOURCE + ":1-3")),
            Check.UNKNOWN_KEY_ID,
            Check.UNKNOWN_KEY_ID),
        new Case(
            "other cluster",
            () -> entry(sign(DEFAULTS, "billing", SOURCE + ":1-3")),
            Check.WRONG_CLUSTER,
            Check.WRONG_CLUSTER),
        new Case(
            "expired",
            () -> entry(sign(codec(RING, NOW.minus(Duration.ofDays(3))), CLUSTER, SOURCE + ":1")),
            Check.EXPIRED,
            Check.EXPIRED),
        new Case(
            "far future",
            () -> entry(sign(codec(RING, NOW.plus(Duration.ofDays(3650))), CLUSTER, SOURCE + ":1")),
            Check.FROM_THE_FUTURE,
            Check.FROM_THE_FUTURE),
        // Past the length limit, the only thing the roomy verifier finds is the made-up MAC.
        new Case(
            "oversized 1 MB header",
            BadTokenCorpusTests::megabyteHeader,
            Check.TOO_LARGE,
            Check.BAD_SIGNATURE),
        new Case(
            "10 000 UUIDs",
            () ->
                entry(
                    sign(
                        UNLIMITED_SIGNER, CLUSTER, tenThousandUuids(UUID.randomUUID().toString()))),
            Check.TOO_LARGE,
            Check.TOO_MANY_UUIDS),
        new Case(
            "100 000 intervals",
            () -> entry(sign(UNLIMITED_SIGNER, CLUSTER, hundredThousandIntervals(SOURCE))),
            Check.TOO_LARGE,
            Check.TOO_MANY_INTERVALS),
        new Case(
            "unknown source UUID",
            () -> entry(sign(DEFAULTS, CLUSTER, UUID.randomUUID() + ":1-3")),
            null,
            null),
        new Case(
            "GNO ahead of the source",
            () -> entry(sign(DEFAULTS, CLUSTER, SOURCE + ":1-" + GtidSet.MAX_GNO)),
            null,
            null),
        new Case(
            "CR/LF in the value",
            () -> entry(sign(DEFAULTS, CLUSTER, SOURCE + ":1") + "\r\nX-Injected: 1"),
            Check.MALFORMED,
            Check.MALFORMED),
        new Case(
            "quotes around a valid token",
            () -> entry("\"" + sign(DEFAULTS, CLUSTER, SOURCE + ":1") + "\""),
            Check.MALFORMED,
            Check.MALFORMED),
        new Case(
            "SQL in the value",
            () -> entry("' OR 1=1; DROP TABLE orders; --"),
            Check.MALFORMED,
            Check.MALFORMED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void eachCaseGetsItsTypedRejectionOrVerifies(Case c) {
    String header = c.header().get();

    for (TokenCodec codec : List.of(DEFAULTS, ROOMY)) {
      Check expected = codec == DEFAULTS ? c.atDefaults() : c.roomy();
      String verifier = codec == DEFAULTS ? "default limits" : "roomy lengths";
      if (expected == null) {
        Optional<ConsistencyToken> token = codec.verify(codec.parseHeader(header), CLUSTER);
        assertThat(token.isPresent()).as(verifier).isEqualTo(header != null && !header.isEmpty());
        token.ifPresent(t -> assertThat(t.gtids().isEmpty()).as(verifier).isFalse());
      } else {
        assertThatThrownBy(() -> codec.verify(codec.parseHeader(header), CLUSTER))
            .as(verifier)
            .isInstanceOfSatisfying(
                TokenRejectedException.class, e -> assertThat(e.reason()).isEqualTo(expected));
      }
    }
  }

  /**
   * A megabyte header is refused by its length, before any of it is read: the median of many
   * rejections, after a warm-up, is far below a millisecond even on a loaded machine.
   */
  @Test
  void rejectsAMegabyteHeaderInWellUnderAMillisecond() {
    String header = megabyteHeader();
    String token = header.substring(CLUSTER.length() + 1);
    long[] headerNanos = new long[200];
    long[] tokenNanos = new long[200];
    for (int warmUp = 0; warmUp < 5_000; warmUp++) {
      rejectHeader(header);
      rejectToken(token);
    }
    for (int i = 0; i < headerNanos.length; i++) {
      headerNanos[i] = rejectHeader(header);
      tokenNanos[i] = rejectToken(token);
    }

    long headerMedian = median(headerNanos);
    long tokenMedian = median(tokenNanos);
    System.out.printf(
        "Rejecting a 1 MB header: median %d ns (parseHeader), %d ns (verify of the token)%n",
        headerMedian, tokenMedian);
    assertThat(headerMedian).isLessThan(Duration.ofMillis(1).toNanos());
    assertThat(tokenMedian).isLessThan(Duration.ofMillis(1).toNanos());
  }

  private static long rejectHeader(String header) {
    long started = System.nanoTime();
    try {
      DEFAULTS.verify(DEFAULTS.parseHeader(header), CLUSTER);
    } catch (TokenRejectedException e) {
      long elapsed = System.nanoTime() - started;
      assertThat(e.reason()).isEqualTo(Check.TOO_LARGE);
      return elapsed;
    }
    throw new AssertionError("a megabyte header was accepted");
  }

  private static long rejectToken(String token) {
    long started = System.nanoTime();
    try {
      DEFAULTS.verify(token, CLUSTER);
    } catch (TokenRejectedException e) {
      long elapsed = System.nanoTime() - started;
      assertThat(e.reason()).isEqualTo(Check.TOO_LARGE);
      return elapsed;
    }
    throw new AssertionError("a megabyte token was accepted");
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static String entry(String token) {
    return BadTokens.entry(CLUSTER, token);
  }

  private static String megabyteHeader() {
    return BadTokens.megabyteHeader(CLUSTER, "k1");
  }

  private static KeyRing ring(String keyId, char fill) {
    return BadTokens.ring(keyId, String.valueOf(fill).repeat(32));
  }
}

package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.LargeGtidSets;
import io.tidemark.MutableClock;
import io.tidemark.RandomGtids;
import io.tidemark.token.TokenRejectedException.Check;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TokenCodecTests {

  private static final Instant NOW = Instant.parse("2025-11-29T10:00:00Z");
  private static final String A = RandomGtids.UUIDS[0];
  private static final String B = RandomGtids.UUIDS[1];
  private static final String C = RandomGtids.UUIDS[2];
  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

  private final MutableClock clock = new MutableClock(NOW);

  static byte[] secret(char fill) {
    return String.valueOf(fill).repeat(32).getBytes(StandardCharsets.US_ASCII);
  }

  private TokenConfig.Builder config(KeyRing ring) {
    return TokenConfig.builder(ring).clock(clock);
  }

  private TokenCodec codec(KeyRing ring) {
    return new TokenCodec(config(ring).build());
  }

  private static KeyRing ring(String active, String... ids) {
    KeyRing.Builder builder = KeyRing.builder();
    for (String id : ids) {
      builder.key(id, secret(id.charAt(id.length() - 1)));
    }
    return builder.active(active).build();
  }

  private final TokenCodec codec = codec(ring("k1", "k1"));

  private ConsistencyToken threeUuids() {
    return codec.issue("orders", GtidSet.parse(A + ":1-1000:1005," + B + ":1-77," + C + ":1-3"));
  }

  private static Consumer<Throwable> rejectedWith(Check reason) {
    return e ->
        assertThat(e)
            .isInstanceOfSatisfying(
                TokenRejectedException.class, r -> assertThat(r.reason()).isEqualTo(reason));
  }

  static LongStream seeds() {
    return LongStream.range(0, 10);
  }

  @Test
  void lostWritesSurviveTheWireAndEveryMergeAndAreNeverRequired() {
    GtidSet lost = GtidSet.parse(A + ":1005," + C + ":3");
    ConsistencyToken told = threeUuids().withLost(lost);

    ConsistencyToken decoded = codec.verify(codec.encode(told), "orders");

    assertThat(decoded).isEqualTo(told);
    assertThat(decoded.lost()).isEqualTo(lost);
    assertThat(decoded.gtids().intersection(lost).isEmpty()).isTrue();
    assertThat(threeUuids().merge(decoded).lost()).isEqualTo(lost);
    assertThat(threeUuids().merge(decoded).gtids().intersection(lost).isEmpty()).isTrue();
    assertThat(codec.verify(codec.encode(decoded.requiringSource()), "orders").lost())
        .isEqualTo(lost);
  }

  @Test
  void aMarkerThatRequiresTheSourceSurvivesTheWireAndEveryMerge() {
    ConsistencyToken marker = threeUuids().requiringSource();

    ConsistencyToken decoded = codec.verify(codec.encode(marker), "orders");

    assertThat(decoded).isEqualTo(marker);
    assertThat(decoded.requiresSource()).isTrue();
    assertThat(codec.verify(codec.encode(threeUuids()), "orders").requiresSource()).isFalse();
    assertThat(threeUuids().merge(marker).requiresSource()).isTrue();
    assertThat(marker.merge(threeUuids()).requiresSource()).isTrue();
    assertThat(marker.compact(GtidSet.parse(A + ":1-2000")).requiresSource()).isTrue();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void roundTripsAnyTokenThroughItsWireForm(long seed) {
    ConsistencyTokenTests.forEachDraw(
        seed,
        (gtids, random) -> {
          ConsistencyToken token = ConsistencyTokenTests.randomToken(gtids, random);
          clock.advance(Duration.between(clock.instant(), token.issuedAt()));

          String encoded = codec.encode(token);

          assertThat(codec.verify(encoded, "orders")).isEqualTo(token);
          assertThat(encoded).matches("v1\\.k1\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}");
        });
  }

  @Test
  void writesATokenThatFitsAHeaderListUnquoted() {
    String encoded = codec.encode(threeUuids());

    assertThat(encoded)
        .doesNotContainAnyWhitespaces()
        .doesNotContain(",", "=", ";", "\"", "+", "/");
    assertThat(encoded.length()).isLessThan(200);
  }

  @Test
  void failsVerificationWhenAnyCharacterIsChangedRemovedOrAdded() {
    String encoded = codec.encode(threeUuids());
    List<String> accepted = new ArrayList<>();
    int attempts = 0;
    for (int i = 0; i < encoded.length(); i++) {
      List<String> variants = new ArrayList<>();
      for (char c : ALPHABET.toCharArray()) {
        if (c != encoded.charAt(i)) {
          variants.add(encoded.substring(0, i) + c + encoded.substring(i + 1));
        }
      }
      variants.add(encoded.substring(0, i) + encoded.substring(i + 1));
      variants.add(encoded.substring(0, i) + 'A' + encoded.substring(i));
      for (String tampered : variants) {
        attempts++;
        try {
          codec.verify(tampered, "orders");
          accepted.add(tampered);
        } catch (TokenRejectedException expected) {
          // Every variant must end here.
        }
      }
    }

    assertThat(attempts).isGreaterThan(10_000);
    assertThat(accepted).isEmpty();
  }

  @Test
  void rejectsAsMalformedEveryCharacterBeyondAsciiWhoseLowByteIsTheOriginal() {
    String encoded = codec.encode(threeUuids());
    for (int i = 0; i < encoded.length(); i++) {
      for (int high : new int[] {0x100, 0x4e00, 0xff00}) {
        String tampered =
            encoded.substring(0, i) + (char) (high | encoded.charAt(i)) + encoded.substring(i + 1);

        assertThatThrownBy(() -> codec.verify(tampered, "orders"))
            .as("%x at %d", high, i)
            .satisfies(rejectedWith(Check.MALFORMED))
            .hasMessageContaining("characters other than");
      }
    }
  }

  @Test
  void rejectsTokenSignedWithTheSameKeyIdButAnotherSecret() {
    TokenCodec forger = codec(KeyRing.builder().key("k1", secret('x')).active("k1").build());

    String forged = forger.encode(threeUuids());

    assertThatThrownBy(() -> codec.verify(forged, "orders"))
        .satisfies(rejectedWith(Check.BAD_SIGNATURE));
  }

  @Test
  void verifiesTokensSignedWithAnyKeyOfTheRingAndSignsWithTheActiveOne() {
    String old = codec.encode(threeUuids());
    TokenCodec rotated = codec(ring("k2", "k1", "k2"));

    assertThat(rotated.verify(old, "orders")).isEqualTo(threeUuids());
    assertThat(rotated.encode(threeUuids())).startsWith("v1.k2.");
    String relabelled = rotated.encode(threeUuids()).replace("v1.k2.", "v1.k1.");
    assertThatThrownBy(() -> rotated.verify(relabelled, "orders"))
        .satisfies(rejectedWith(Check.BAD_SIGNATURE));
  }

  @Test
  void rejectsTokenSignedWithUnknownKey() {
    String old = codec.encode(threeUuids());
    TokenCodec retired = codec(ring("k2", "k2"));

    assertThatThrownBy(() -> retired.verify(old, "orders"))
        .satisfies(rejectedWith(Check.UNKNOWN_KEY_ID))
        .hasMessageContaining("k1");
  }

  @Test
  void rejectsTokenForAnotherCluster() {
    String payments = codec.encode(codec.issue("payments", GtidSet.parse(A + ":1")));

    assertThatThrownBy(() -> codec.verify(payments, "orders"))
        .satisfies(rejectedWith(Check.WRONG_CLUSTER))
        .hasMessageContaining("payments");
  }

  @Test
  void rejectsExpiredTokensAllowingForClockSkew() {
    String encoded = codec.encode(threeUuids());
    Duration limit = TokenConfig.DEFAULT_TIME_TO_LIVE.plus(TokenConfig.DEFAULT_CLOCK_SKEW);

    assertAcceptedUntilThenExpired(codec, encoded, limit, Duration.ofSeconds(1));
  }

  @Test
  void rejectsTokensFromTheFutureBeyondTheClockSkew() {
    clock.advance(TokenConfig.DEFAULT_CLOCK_SKEW);
    String withinSkew = codec.encode(threeUuids());
    clock.advance(Duration.ofSeconds(1));
    String beyondSkew = codec.encode(threeUuids());
    clock.advance(TokenConfig.DEFAULT_CLOCK_SKEW.plusSeconds(1).negated());

    assertThatCode(() -> codec.verify(withinSkew, "orders")).doesNotThrowAnyException();
    assertThatThrownBy(() -> codec.verify(beyondSkew, "orders"))
        .satisfies(rejectedWith(Check.FROM_THE_FUTURE));
  }

  @Test
  void rejectsTokensForClustersWhoseNamesDifferInOneCharacterOrInLength() {
    String encoded = codec.encode(threeUuids());

    for (String other : List.of("order", "orderss", "orderS", "Orders", "ordérs")) {
      assertThatThrownBy(() -> codec.verify(encoded, other))
          .satisfies(rejectedWith(Check.WRONG_CLUSTER))
          .hasMessage("token for cluster orders presented for " + other);
    }
    assertThat(codec.verify(encoded, "orders").cluster()).isEqualTo("orders");
  }

  @Test
  void agesTokensByTheMillisecondOfTimeToLivePlusSkewSummedToTheNanosecond() {
    // 1.0012 s in all: the parts' fractions of a millisecond add up to one more millisecond.
    TokenCodec precise =
        new TokenCodec(
            config(ring("k1", "k1"))
                .timeToLive(Duration.ofSeconds(1).plusNanos(600_000))
                .clockSkew(Duration.ofNanos(600_000))
                .build());
    String encoded = precise.encode(precise.issue("orders", GtidSet.parse(A + ":1")));

    assertAcceptedUntilThenExpired(
        precise, encoded, Duration.ofMillis(1_001), Duration.ofMillis(1));
  }

  @Test
  void allowsTokensFromTheFutureUpToTheSecondThatNowPlusTheSkewHasReached() {
    TokenCodec skewed =
        new TokenCodec(config(ring("k1", "k1")).clockSkew(Duration.ofMillis(1_500)).build());
    clock.advance(Duration.ofSeconds(2));
    String twoSecondsAhead = skewed.encode(skewed.issue("orders", GtidSet.parse(A + ":1")));
    clock.advance(Duration.ofMillis(-1_501));

    assertThatThrownBy(() -> skewed.verify(twoSecondsAhead, "orders"))
        .satisfies(rejectedWith(Check.FROM_THE_FUTURE));
    clock.advance(Duration.ofMillis(1));
    assertThatCode(() -> skewed.verify(twoSecondsAhead, "orders")).doesNotThrowAnyException();
  }

  @Test
  void verifiesTokensLongerThanTheDefaultLimitWhenTheLimitAllowsThem() {
    StringBuilder scattered = new StringBuilder(A);
    for (long gno = 1; gno <= 3_000; gno += 2) {
      scattered.append(':').append(gno);
    }
    TokenCodec roomy =
        new TokenCodec(
            config(ring("k1", "k1")).maxTokenLength(100_000).maxIntervals(10_000).build());
    ConsistencyToken token = roomy.issue("orders", GtidSet.parse(scattered));

    String encoded = roomy.encode(token);

    assertThat(encoded.length()).isGreaterThan(TokenConfig.DEFAULT_MAX_TOKEN_LENGTH);
    assertThat(roomy.verify(encoded, "orders")).isEqualTo(token);
    assertThat(roomy.verify(codec.encode(threeUuids()), "orders")).isEqualTo(threeUuids());
  }

  @Test
  void verifiesFromManyThreadsAtOnce() throws Exception {
    List<String> encoded = new ArrayList<>();
    List<ConsistencyToken> tokens = new ArrayList<>();
    RandomGtids gtids = new RandomGtids(3, true);
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 64; i++) {
      ConsistencyToken token =
          codec.issue("orders", ConsistencyTokenTests.randomToken(gtids, random).gtids());
      tokens.add(token);
      encoded.add(codec.encode(token));
    }
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> wrong = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t;
        wrong.add(
            threads.submit(
                () -> {
                  int mismatches = 0;
                  for (int i = 0; i < 20_000; i++) {
                    int n = (i * 7 + offset) % tokens.size();
                    if (!codec.verify(encoded.get(n), "orders").equals(tokens.get(n))) {
                      mismatches++;
                    }
                  }
                  return mismatches;
                }));
      }
      for (Future<Integer> mismatches : wrong) {
        assertThat(mismatches.get()).isZero();
      }
    } finally {
      threads.shutdown();
    }
  }

  @Test
  void rejectsAMegabyteTokenByItsLengthAlone() {
    String huge = "v1.k1." + "A".repeat(1 << 20) + ".sig";

    assertThatThrownBy(() -> codec.verify(huge, "orders")).satisfies(rejectedWith(Check.TOO_LARGE));
  }

  @Test
  void rejectsTokensWithTenThousandUuidsOrAHundredThousandIntervals() {
    StringBuilder manyUuids = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      manyUuids.append(String.format("%08x-0000-0000-0000-000000000000:1,", i));
    }
    StringBuilder manyIntervals = new StringBuilder(A);
    for (long gno = 1; gno <= 100_000; gno++) {
      manyIntervals.append(':').append(gno * 2);
    }
    KeyRing ring = ring("k1", "k1");
    TokenCodec issuer =
        new TokenCodec(
            config(ring)
                .maxTokenLength(10_000_000)
                .maxUuids(100_000)
                .maxIntervals(1_000_000)
                .build());
    TokenCodec verifier = new TokenCodec(config(ring).maxTokenLength(10_000_000).build());

    String uuids = issuer.encode(issuer.issue("orders", LargeGtidSets.parse(manyUuids)));
    String intervals = issuer.encode(issuer.issue("orders", LargeGtidSets.parse(manyIntervals)));

    assertThatThrownBy(() -> verifier.verify(uuids, "orders"))
        .satisfies(rejectedWith(Check.TOO_MANY_UUIDS));
    assertThatThrownBy(() -> verifier.verify(intervals, "orders"))
        .satisfies(rejectedWith(Check.TOO_MANY_INTERVALS));
    assertThatThrownBy(() -> codec.verify(uuids, "orders"))
        .satisfies(rejectedWith(Check.TOO_LARGE));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "v1",
        "v1.k1",
        "v1.k1.payload",
        "v1.k1..AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "v1.k1.AAAA.short",
        "v1.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.extra",
        "v1.k1.AA AA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "v1.k1.AAAA\r\n.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "\"v1.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"",
        "v1.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='",
        "'; DROP TABLE orders; --",
        "x1.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ".k1.AAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
      })
  void rejectsMalformedTokensIncludingLineBreaksQuotesAndSql(String value) {
    assertThatThrownBy(() -> codec.verify(value, "orders"))
        .satisfies(rejectedWith(Check.MALFORMED));
  }

  @Test
  void rejectsTokensOfAnotherFormatVersion() {
    String v2 = codec.encode(threeUuids()).replaceFirst("v1", "v2");

    assertThatThrownBy(() -> codec.verify(v2, "orders"))
        .satisfies(rejectedWith(Check.UNSUPPORTED_VERSION));
  }

  @Test
  void checksInOrderSizeSyntaxKeyIdSignatureClusterAgeLimits() {
    KeyRing ring = ring("k1", "k1");
    TokenCodec lenient =
        new TokenCodec(config(ring).maxTokenLength(100_000).maxUuids(1_000).build());
    TokenCodec strict = new TokenCodec(config(ring).maxTokenLength(100_000).maxUuids(2).build());
    ConsistencyToken paymentsWithThreeUuids = lenient.issue("payments", threeUuids().gtids());
    String valid = lenient.encode(paymentsWithThreeUuids);
    String badMac = valid.substring(0, valid.length() - 1) + (valid.endsWith("A") ? "B" : "A");

    assertThatThrownBy(() -> codec.verify(valid + "!".repeat(2_048), "orders"))
        .satisfies(rejectedWith(Check.TOO_LARGE));
    assertThatThrownBy(() -> codec.verify("v1.k9.!.x", "orders"))
        .satisfies(rejectedWith(Check.MALFORMED));
    assertThatThrownBy(() -> codec(ring("k2", "k2")).verify(badMac, "orders"))
        .satisfies(rejectedWith(Check.UNKNOWN_KEY_ID));
    assertThatThrownBy(() -> strict.verify(badMac, "orders"))
        .satisfies(rejectedWith(Check.BAD_SIGNATURE));
    clock.advance(Duration.ofDays(30));
    assertThatThrownBy(() -> strict.verify(valid, "orders"))
        .satisfies(rejectedWith(Check.WRONG_CLUSTER));
    assertThatThrownBy(() -> strict.verify(valid, "payments"))
        .satisfies(rejectedWith(Check.EXPIRED));
    clock.advance(Duration.ofDays(-30));
    assertThatThrownBy(() -> strict.verify(valid, "payments"))
        .satisfies(rejectedWith(Check.TOO_MANY_UUIDS));
  }

  @Test
  void refusesToEncodeATokenOverTheLimitsUntilItIsCompacted() {
    StringBuilder scattered = new StringBuilder(A);
    for (long gno = 1; gno <= 400; gno += 2) {
      scattered.append(':').append(gno);
    }
    ConsistencyToken token = codec.issue("orders", GtidSet.parse(scattered));

    assertThatThrownBy(() -> codec.encode(token))
        .isInstanceOfSatisfying(
            TokenOverflowException.class,
            e -> assertThat(e.reason()).isEqualTo(TokenOverflowException.Limit.TOO_MANY_INTERVALS))
        .hasMessageContaining("200 intervals");
    ConsistencyToken compacted = token.compact(GtidSet.parse(A + ":1-1000"));
    assertThat(codec.verify(codec.encode(compacted), "orders").gtids()).hasToString(A + ":1-399");
  }

  @Test
  void refusesToEncodeATokenWithTooManyUuids() {
    TokenCodec small = new TokenCodec(config(ring("k1", "k1")).maxUuids(2).build());

    assertThatThrownBy(() -> small.encode(threeUuids().compact(GtidSet.EMPTY)))
        .isInstanceOfSatisfying(
            TokenOverflowException.class,
            e -> assertThat(e.reason()).isEqualTo(TokenOverflowException.Limit.TOO_MANY_UUIDS));
  }

  @Test
  void refusesToEncodeATokenLongerThanTheLimit() {
    TokenCodec small = new TokenCodec(config(ring("k1", "k1")).maxTokenLength(128).build());

    assertThatThrownBy(() -> small.encode(threeUuids()))
        .isInstanceOfSatisfying(
            TokenOverflowException.class,
            e -> assertThat(e.reason()).isEqualTo(TokenOverflowException.Limit.TOO_LARGE));
  }

  /**
   * {@code verifier} accepts {@code encoded} once {@code age} passed, and refuses it as expired
   * after.
   */
  private void assertAcceptedUntilThenExpired(
      TokenCodec verifier, String encoded, Duration age, Duration more) {
    clock.advance(age);
    assertThatCode(() -> verifier.verify(encoded, "orders")).doesNotThrowAnyException();
    clock.advance(more);
    assertThatThrownBy(() -> verifier.verify(encoded, "orders"))
        .satisfies(rejectedWith(Check.EXPIRED));
  }
}

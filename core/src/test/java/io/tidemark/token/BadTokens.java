package io.tidemark.token;

import io.tidemark.GtidSet;
import io.tidemark.LargeGtidSets;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * How the bad tokens of the design's failure catalogue are made, shared by the codec's corpus and
 * the HTTP corpus of the starter: each is signed by a real codec, so only the one property that
 * makes it bad is wrong.
 */
public final class BadTokens {

  private BadTokens() {}

  /** A header entry of {@code cluster} holding {@code token}. */
  public static String entry(String cluster, String token) {
    return cluster + "=" + token;
  }

  /** An entry of over a megabyte, with a made-up MAC: refused by its length before it is read. */
  public static String megabyteHeader(String cluster, String keyId) {
    return entry(cluster, "v1." + keyId + "." + "A".repeat(1 << 20) + "." + "B".repeat(43));
  }

  /** A GTID set of {@code first} and 9 999 random UUIDs, one GTID each. */
  public static String tenThousandUuids(String first) {
    StringBuilder text = new StringBuilder(first).append(":1");
    for (int i = 1; i < 10_000; i++) {
      text.append(',').append(UUID.randomUUID()).append(":1");
    }
    return text.toString();
  }

  /** A GTID set of {@code uuid} with 100 000 separate intervals. */
  public static String hundredThousandIntervals(String uuid) {
    StringBuilder text = new StringBuilder(uuid);
    for (long gno = 1; gno <= 100_000; gno++) {
      text.append(':').append(gno * 2);
    }
    return text.toString();
  }

  /** {@code token} with the first character of its MAC changed. */
  public static String flipFirstMacCharacter(String token) {
    int mac = token.lastIndexOf('.') + 1;
    char c = token.charAt(mac);
    return token.substring(0, mac) + (c == 'A' ? 'B' : 'A') + token.substring(mac + 1);
  }

  /** {@code gtids}, of any size, signed by {@code codec} for {@code cluster}. */
  public static String sign(TokenCodec codec, String cluster, String gtids) {
    GtidSet set = LargeGtidSets.parse(gtids);
    return codec.encode(codec.issue(cluster, set));
  }

  /** A key ring holding only {@code secret} under {@code keyId}. */
  public static KeyRing ring(String keyId, String secret) {
    return KeyRing.builder()
        .key(keyId, secret.getBytes(StandardCharsets.UTF_8))
        .active(keyId)
        .build();
  }

  /** A codec signing with {@code ring} whose clock stands at {@code now}. */
  public static TokenCodec codec(KeyRing ring, Instant now) {
    return new TokenCodec(
        TokenConfig.builder(ring).clock(Clock.fixed(now, ZoneOffset.UTC)).build());
  }

  /**
   * A codec that signs anything with {@code ring} at {@code now}: its limits are far above any
   * verifier's.
   */
  public static TokenCodec unlimited(KeyRing ring, Instant now) {
    return new TokenCodec(
        TokenConfig.builder(ring)
            .clock(Clock.fixed(now, ZoneOffset.UTC))
            .maxTokenLength(50_000_000)
            .maxHeaderLength(50_000_000)
            .maxUuids(100_000)
            .maxIntervals(1_000_000)
            .build());
  }
}

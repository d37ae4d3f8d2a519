package io.tidemark.token;

import io.tidemark.GtidSet;
import io.tidemark.token.TokenRejectedException.Check;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Signs consistency tokens for the wire and verifies tokens that come back, the entry point for
 * everything that crosses a process boundary. Thread-safe.
 *
 * <p>The wire form is {@code v1.<key id>.<payload>.<mac>}: the format version, the id of the key
 * that signed it, the binary payload (cluster, issue time, each UUID as 16 bytes with its GNOs as
 * variable-length distances, a flags number) and the HMAC-SHA256 of everything before the last dot,
 * both in unpadded URL-safe Base64; a token of three UUIDs takes 150 to 180 characters. It holds
 * only letters, digits and {@code . _ -}, so it sits in a URL, a cookie or a {@code cluster=token}
 * header list as it is.
 *
 * <p>{@link #verify(String, String)} runs its checks in the order of {@link
 * TokenRejectedException.Check}: length before any character is read, syntax, key id, signature
 * (compared in constant time, on the text, so no two spellings of one signature exist), and only
 * then the payload, which is never parsed before it is authenticated: cluster, age, UUID and
 * interval limits. Whether the token's source UUIDs are the cluster's is checked on the read path,
 * against the servers.
 */
public final class TokenCodec {

  private static final String VERSION = "v1";
  private static final String PREFIX = VERSION + '.';
  private static final int MAC_TEXT_LENGTH = 43;

  private final TokenConfig config;
  private final int pooledLength;
  private final SlotPool<Scratch> scratches;

  /** Creates a codec for {@code config}. */
  public TokenCodec(TokenConfig config) {
    this.config = Objects.requireNonNull(config);
    this.pooledLength = Math.min(config.maxTokenLength(), TokenConfig.DEFAULT_MAX_TOKEN_LENGTH);
    this.scratches = new SlotPool<>(() -> new Scratch(pooledLength));
  }

  /** The settings this codec applies. */
  public TokenConfig config() {
    return config;
  }

  /** A token for {@code gtids} on {@code cluster}, issued now by the configured clock. */
  public ConsistencyToken issue(String cluster, GtidSet gtids) {
    return ConsistencyToken.of(cluster, gtids, config.clock().instant());
  }

  /**
   * Signs {@code token} with the active key.
   *
   * @throws TokenOverflowException when the token exceeds the UUID or interval limits, or its
   *     encoded form the length limit; compact it first with what the source has executed
   */
  public String encode(ConsistencyToken token) {
    GtidSet gtids = token.gtids();
    if (gtids.uuidCount() > config.maxUuids()) {
      throw overflow(
          TokenOverflowException.Limit.TOO_MANY_UUIDS,
          token,
          gtids.uuidCount() + " source UUIDs, more than " + config.maxUuids());
    }
    if (gtids.intervalCount() > config.maxIntervals()
        || token.lost().intervalCount() > config.maxIntervals()) {
      throw overflow(
          TokenOverflowException.Limit.TOO_MANY_INTERVALS,
          token,
          gtids.intervalCount() + " intervals, more than " + config.maxIntervals());
    }
    KeyRing.Key key = config.keyRing().activeKey();
    Base64.Encoder base64 = TokenText.encoder();
    String signed = PREFIX + key.id() + '.' + base64.encodeToString(TokenPayload.write(token));
    byte[] text = signed.getBytes(StandardCharsets.US_ASCII);
    byte[] mac = new byte[KeyRing.MAC_LENGTH];
    key.sign(text, text.length, mac);
    String encoded = signed + '.' + base64.encodeToString(mac);
    if (encoded.length() > config.maxTokenLength()) {
      throw overflow(
          TokenOverflowException.Limit.TOO_LARGE,
          token,
          encoded.length() + " characters encoded, more than " + config.maxTokenLength());
    }
    return encoded;
  }

  /**
   * Verifies an encoded token for {@code cluster} and returns what it carries.
   *
   * @throws TokenRejectedException with the reason of the first check that failed
   */
  public ConsistencyToken verify(String encoded, String cluster) {
    int length = encoded.length();
    if (length > config.maxTokenLength()) {
      throw new TokenRejectedException(
          Check.TOO_LARGE,
          "token of " + length + " characters is longer than " + config.maxTokenLength());
    }
    if (length > pooledLength) {
      return verify(encoded, cluster, new Scratch(length));
    }
    Scratch scratch = scratches.take();
    try {
      return verify(encoded, cluster, scratch);
    } finally {
      scratches.giveBack(scratch);
    }
  }

  private ConsistencyToken verify(String encoded, String cluster, Scratch scratch) {
    // Where the parts of a token that verifies are: the signature at the end, the key id up to the
    // first dot after the version. Every character is then compared with the version or a key id,
    // decoded, or compared with the signature, so a text that passes is token text in four parts,
    // and the low bytes the MAC is computed over are its characters. A text that fails any of it
    // goes to rejection(), which runs the checks in their documented order.
    int payloadEnd = encoded.length() - MAC_TEXT_LENGTH - 1;
    int keyIdEnd = encoded.indexOf('.', PREFIX.length());
    KeyRing.Key key =
        encoded.startsWith(PREFIX)
                && keyIdEnd > PREFIX.length()
                && keyIdEnd < payloadEnd - 1
                && encoded.charAt(payloadEnd) == '.'
            ? config.keyRing().key(encoded, PREFIX.length(), keyIdEnd)
            : null;
    if (key == null) {
      throw rejection(
          encoded,
          () ->
              new TokenRejectedException(
                  Check.UNKNOWN_KEY_ID,
                  "token signed with key id "
                      + encoded.substring(PREFIX.length(), keyIdEnd)
                      + " not in "
                      + config.keyRing()));
    }
    TokenText.copyLowBytes(encoded, payloadEnd, scratch.text);
    key.sign(scratch.text, payloadEnd, scratch.mac);
    if (!TokenText.isBase64Of(scratch.mac, scratch.macText, encoded, payloadEnd + 1)) {
      throw rejection(
          encoded,
          () -> new TokenRejectedException(Check.BAD_SIGNATURE, "token signature does not match"));
    }
    ByteBuffer payload = scratch.payload;
    int payloadLength = TokenText.decode(encoded, keyIdEnd + 1, payloadEnd, payload.array());
    if (payloadLength < 0) {
      throw rejection(encoded, () -> malformed("a payload that is not Base64"));
    }
    return read(payload.clear().limit(payloadLength), cluster);
  }

  /**
   * The rejection of the first syntax check {@code encoded} fails, in the documented order, or
   * {@code later}'s when it passes them all. These checks find where the parts are in any text;
   * they run only for rejected texts, as the one over all characters would slow every request.
   */
  private static TokenRejectedException rejection(
      String encoded, Supplier<TokenRejectedException> later) {
    if (!TokenText.isTokenText(encoded)) {
      return malformed("characters other than letters, digits and . _ -");
    }
    int versionEnd = encoded.indexOf('.');
    int keyIdEnd = versionEnd < 0 ? -1 : encoded.indexOf('.', versionEnd + 1);
    int payloadEnd = keyIdEnd < 0 ? -1 : encoded.indexOf('.', keyIdEnd + 1);
    if (payloadEnd < 0 || encoded.indexOf('.', payloadEnd + 1) >= 0) {
      return malformed("not four parts separated by dots");
    }
    String version = encoded.substring(0, versionEnd);
    if (!version.equals(VERSION)) {
      return TokenText.isVersion(version)
          ? new TokenRejectedException(
              Check.UNSUPPORTED_VERSION, "token format " + version + " is not " + VERSION)
          : malformed("no format version");
    }
    // Token text without dots is made of key id characters: only the length can be wrong.
    int keyIdLength = keyIdEnd - versionEnd - 1;
    if (keyIdLength == 0
        || keyIdLength > KeyRing.MAX_KEY_ID_LENGTH
        || payloadEnd == keyIdEnd + 1
        || encoded.length() - payloadEnd - 1 != MAC_TEXT_LENGTH) {
      return malformed("a key id, payload or signature of the wrong shape");
    }
    return later.get();
  }

  /**
   * Reads a header value of {@code cluster=token} entries; a null value is an empty header.
   *
   * @throws TokenRejectedException {@link Check#TOO_LARGE} before reading a value longer than
   *     {@link TokenConfig#maxHeaderLength()}, {@link Check#MALFORMED} for anything but entries of
   *     cluster names and token characters
   */
  public ConsistencyHeader parseHeader(@Nullable String value) {
    return ConsistencyHeader.parse(value, config.maxHeaderLength());
  }

  /**
   * Verifies every token {@code header} holds for {@code cluster} and merges them; empty when it
   * holds none. Tokens for other clusters are not looked at.
   *
   * @throws TokenRejectedException when one of them fails verification
   */
  public Optional<ConsistencyToken> verify(ConsistencyHeader header, String cluster) {
    @Nullable ConsistencyToken merged = null;
    for (String encoded : header.tokens(cluster)) {
      ConsistencyToken token = verify(encoded, cluster);
      merged = merged == null ? token : merged.merge(token);
    }
    return Optional.ofNullable(merged);
  }

  /**
   * {@code header} with {@code token}, signed, as the only token of its cluster; other clusters'
   * tokens are kept untouched.
   *
   * @throws TokenOverflowException when the token exceeds the limits or the header would be longer
   *     than {@link TokenConfig#maxHeaderLength()}
   */
  public ConsistencyHeader withToken(ConsistencyHeader header, ConsistencyToken token) {
    ConsistencyHeader result = header.with(token.cluster(), encode(token));
    int length = result.toString().length();
    if (length > config.maxHeaderLength()) {
      throw overflow(
          TokenOverflowException.Limit.TOO_LARGE,
          token,
          "a header of " + length + " characters, more than " + config.maxHeaderLength());
    }
    return result;
  }

  private ConsistencyToken read(ByteBuffer payload, String cluster) {
    TokenPayload reader = TokenPayload.reading(payload);
    String tokenCluster = reader.readCluster(cluster);
    if (!tokenCluster.equals(cluster)) {
      throw new TokenRejectedException(
          Check.WRONG_CLUSTER, "token for cluster " + tokenCluster + " presented for " + cluster);
    }
    Instant issuedAt = checkAge(reader.readEpochSecond());
    GtidSet gtids = reader.readGtids(config.maxUuids(), config.maxIntervals());
    long flags = reader.readFlags();
    GtidSet lost = reader.readLost(flags, config.maxUuids(), config.maxIntervals());
    reader.expectEnd();
    return ConsistencyToken.decoded(
        cluster, gtids, lost, issuedAt, TokenPayload.requiresSource(flags));
  }

  private Instant checkAge(long epochSecond) {
    long now = config.clock().millis();
    // Compared in seconds first: a forged huge value must not overflow the sum below.
    if (epochSecond > Math.floorDiv(now + config.skewMillis(), 1000)) {
      throw new TokenRejectedException(
          Check.FROM_THE_FUTURE,
          "token issued at epoch second "
              + epochSecond
              + ", later than now ("
              + Instant.ofEpochMilli(now)
              + ") plus the allowed skew of "
              + config.clockSkew());
    }
    Instant issuedAt = Instant.ofEpochSecond(epochSecond);
    if (epochSecond * 1000 + config.lifetimeMillis() < now) {
      throw new TokenRejectedException(
          Check.EXPIRED,
          "token issued at "
              + issuedAt
              + " expired; time to live "
              + config.timeToLive()
              + ", now "
              + Instant.ofEpochMilli(now));
    }
    return issuedAt;
  }

  private static TokenRejectedException malformed(String problem) {
    return new TokenRejectedException(Check.MALFORMED, "token has " + problem);
  }

  /** The buffers of one verification, lent to later ones. */
  private static final class Scratch {
    final byte[] text;
    final byte[] mac = new byte[KeyRing.MAC_LENGTH];
    final byte[] macText = new byte[MAC_TEXT_LENGTH];
    final ByteBuffer payload;

    Scratch(int maxTokenLength) {
      this.text = new byte[maxTokenLength];
      this.payload = ByteBuffer.wrap(new byte[maxTokenLength * 3 / 4]);
    }
  }

  private static TokenOverflowException overflow(
      TokenOverflowException.Limit reason, ConsistencyToken token, String facts) {
    return new TokenOverflowException(
        reason, "token for cluster " + token.cluster() + " cannot be sent: " + facts);
  }
}

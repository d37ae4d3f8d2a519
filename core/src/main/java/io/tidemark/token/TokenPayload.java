package io.tidemark.token;

import io.tidemark.GtidSet;
import io.tidemark.GtidSetFormatException;
import io.tidemark.internal.Varint;
import io.tidemark.token.TokenRejectedException.Check;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The binary body of a version 1 token, written whole and read one field at a time so that the
 * codec can check each field in verification order before it reads the next.
 *
 * <p>Layout, every number an unsigned LEB128 varint: cluster name (length, ASCII); issue time in
 * epoch seconds; the GTID set in its binary form ({@link GtidSet#writeBinary}); flags (1: the token
 * requires the source; 2: a second GTID set follows, the writes a failover lost).
 */
final class TokenPayload {

  private static final long REQUIRES_SOURCE = 1;
  private static final long NAMES_LOST = 2;

  private final ByteBuffer in;

  private TokenPayload(ByteBuffer in) {
    this.in = in;
  }

  /** A reader over a decoded payload, from the buffer's position to its limit. */
  static TokenPayload reading(ByteBuffer payload) {
    return new TokenPayload(payload);
  }

  static byte[] write(ConsistencyToken token) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    ascii(out, token.cluster());
    Varint.write(out, token.issuedAt().getEpochSecond());
    token.gtids().writeBinary(out);
    boolean namesLost = !token.lost().isEmpty();
    Varint.write(
        out, (token.requiresSource() ? REQUIRES_SOURCE : 0) | (namesLost ? NAMES_LOST : 0));
    if (namesLost) {
      token.lost().writeBinary(out);
    }
    return out.toByteArray();
  }

  /** Reads the cluster name; {@code expected} itself when it is that name, so none is made. */
  String readCluster(String expected) {
    long length = readVarint();
    if (length > ConsistencyToken.MAX_CLUSTER_LENGTH || length > in.remaining()) {
      throw malformed("length");
    }
    String cluster;
    if (isAt(expected, (int) length)) {
      cluster = expected;
      in.position(in.position() + (int) length);
    } else {
      byte[] text = new byte[(int) length];
      in.get(text);
      cluster = new String(text, StandardCharsets.ISO_8859_1);
    }
    if (!ConsistencyToken.isClusterName(cluster)) {
      throw malformed("cluster name");
    }
    return cluster;
  }

  private boolean isAt(String text, int length) {
    if (text.length() != length) {
      return false;
    }
    int position = in.position();
    for (int i = 0; i < length; i++) {
      if ((in.get(position + i) & 0xff) != text.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  long readEpochSecond() {
    return readVarint();
  }

  GtidSet readGtids(int maxUuids, int maxIntervals) {
    try {
      return GtidSet.readBinary(in, maxUuids, maxIntervals);
    } catch (GtidSetFormatException e) {
      throw switch (e.reason()) {
        case TOO_MANY_UUIDS ->
            new TokenRejectedException(
                Check.TOO_MANY_UUIDS, "token names more than " + maxUuids + " source UUIDs");
        case TOO_MANY_INTERVALS ->
            new TokenRejectedException(
                Check.TOO_MANY_INTERVALS, "token holds more than " + maxIntervals + " intervals");
        default -> malformed("GTID set (" + e.getMessage() + ")");
      };
    }
  }

  /** Reads the flags. */
  long readFlags() {
    long flags = readVarint();
    if ((flags & ~(REQUIRES_SOURCE | NAMES_LOST)) != 0) {
      throw malformed("flags");
    }
    return flags;
  }

  static boolean requiresSource(long flags) {
    return (flags & REQUIRES_SOURCE) != 0;
  }

  /** The lost writes' GTIDs the flags announce, or none. */
  GtidSet readLost(long flags, int maxUuids, int maxIntervals) {
    return (flags & NAMES_LOST) == 0 ? GtidSet.EMPTY : readGtids(maxUuids, maxIntervals);
  }

  void expectEnd() {
    if (in.hasRemaining()) {
      throw malformed("trailing bytes");
    }
  }

  private long readVarint() {
    long value = Varint.read(in);
    if (value < 0) {
      throw malformed("number");
    }
    return value;
  }

  private static void ascii(ByteArrayOutputStream out, String text) {
    Varint.write(out, text.length());
    out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static TokenRejectedException malformed(String field) {
    return new TokenRejectedException(Check.MALFORMED, "token payload has a malformed " + field);
  }
}

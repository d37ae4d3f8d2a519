package io.tidemark.token;

import io.tidemark.GtidSet;
import io.tidemark.GtidSetFormatException;
import io.tidemark.internal.Varint;
import io.tidemark.token.TokenRejectedException.Check;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The binary body of a version 1 token, written whole and read one field at a time so that the
 * codec can check each field in verification order before it reads the next.
 *
 * <p>Layout, every number an unsigned LEB128 varint: cluster name (length, ASCII); issue time in
 * epoch seconds; the GTID set in its binary form ({@link GtidSet#writeBinary}); revision count,
 * then per revision the key (length, UTF-8) and the revision; flags (1: the token requires the
 * source).
 */
final class TokenPayload {

  private static final long REQUIRES_SOURCE = 1;

  private final ByteBuffer in;

  private TokenPayload(ByteBuffer in) {
    this.in = in;
  }

  /** A reader over a decoded payload. */
  static TokenPayload reading(byte[] bytes) {
    return new TokenPayload(ByteBuffer.wrap(bytes));
  }

  static byte[] write(ConsistencyToken token) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    ascii(out, token.cluster());
    Varint.write(out, token.issuedAt().getEpochSecond());
    token.gtids().writeBinary(out);
    Varint.write(out, token.revisions().size());
    for (Map.Entry<String, Long> revision : token.revisions().entrySet()) {
      byte[] key = revision.getKey().getBytes(StandardCharsets.UTF_8);
      Varint.write(out, key.length);
      out.writeBytes(key);
      Varint.write(out, revision.getValue());
    }
    Varint.write(out, token.requiresSource() ? REQUIRES_SOURCE : 0);
    return out.toByteArray();
  }

  String readCluster() {
    String cluster = readAscii(ConsistencyToken.MAX_CLUSTER_LENGTH);
    if (!ConsistencyToken.isClusterName(cluster)) {
      throw malformed("cluster name");
    }
    return cluster;
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

  SortedMap<String, Long> readRevisions(int maxRevisions) {
    long count = readVarint();
    if (count > maxRevisions) {
      throw new TokenRejectedException(
          Check.TOO_MANY_REVISIONS,
          "token holds " + count + " revisions, more than " + maxRevisions);
    }
    SortedMap<String, Long> revisions = new TreeMap<>();
    String previous = "";
    for (long i = 0; i < count; i++) {
      long length = readVarint();
      if (length > ConsistencyToken.MAX_REVISION_KEY_LENGTH * 3 || length > in.remaining()) {
        throw malformed("revision key");
      }
      byte[] bytes = new byte[(int) length];
      in.get(bytes);
      String key = new String(bytes, StandardCharsets.UTF_8);
      if (key.isEmpty()
          || key.length() > ConsistencyToken.MAX_REVISION_KEY_LENGTH
          || key.compareTo(previous) <= 0) {
        throw malformed("revision key");
      }
      revisions.put(key, readVarint());
      previous = key;
    }
    return revisions;
  }

  /** Reads the flags: whether the token requires the source. */
  boolean readRequiresSource() {
    long flags = readVarint();
    if ((flags & ~REQUIRES_SOURCE) != 0) {
      throw malformed("flags");
    }
    return flags == REQUIRES_SOURCE;
  }

  void expectEnd() {
    if (in.hasRemaining()) {
      throw malformed("trailing bytes");
    }
  }

  private String readAscii(int maxLength) {
    long length = readVarint();
    if (length > maxLength || length > in.remaining()) {
      throw malformed("length");
    }
    byte[] text = new byte[(int) length];
    in.get(text);
    return new String(text, StandardCharsets.ISO_8859_1);
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

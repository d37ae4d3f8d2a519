package io.tidemark;

import io.tidemark.TokenRejectedException.Check;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The binary body of a version 1 token, written whole and read one field at a time so that the
 * codec can check each field in verification order before it reads the next.
 *
 * <p>Layout, every number an unsigned LEB128 varint: cluster name (length, ASCII); issue time in
 * epoch seconds; TSID count, then per TSID the 16 UUID bytes, tag (length, ASCII; 0 when untagged),
 * interval count and per interval the distance from the previous interval's end plus two (from 0
 * for the first) and the length minus one; revision count, then per revision the key (length,
 * UTF-8) and the revision; flags (1: the token requires the source). Only canonical sets can be
 * written: distances cannot express overlapping, touching or unsorted intervals.
 */
final class TokenPayload {

  private static final int MAX_TAG_LENGTH = 32;
  private static final long REQUIRES_SOURCE = 1;

  private byte[] bytes;
  private int pos;

  private TokenPayload(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A reader over a decoded payload. */
  static TokenPayload reading(byte[] bytes) {
    return new TokenPayload(bytes);
  }

  static byte[] write(ConsistencyToken token) {
    GtidSet gtids = token.gtids();
    TokenPayload out = new TokenPayload(new byte[64 + gtids.tsidCount() * 24]);
    out.ascii(token.cluster());
    out.varint(token.issuedAt().getEpochSecond());
    out.varint(gtids.tsidCount());
    for (int i = 0; i < gtids.tsidCount(); i++) {
      Tsid tsid = gtids.tsid(i);
      out.fixed64(tsid.msb);
      out.fixed64(tsid.lsb);
      out.ascii(tsid.tag);
      long[] bounds = gtids.intervals(i);
      out.varint(bounds.length / 2);
      long previousEnd = -1;
      for (int b = 0; b < bounds.length; b += 2) {
        out.varint(bounds[b] - previousEnd - 2);
        out.varint(bounds[b + 1] - bounds[b]);
        previousEnd = bounds[b + 1];
      }
    }
    out.varint(token.revisions().size());
    for (Map.Entry<String, Long> revision : token.revisions().entrySet()) {
      byte[] key = revision.getKey().getBytes(StandardCharsets.UTF_8);
      out.varint(key.length);
      out.raw(key);
      out.varint(revision.getValue());
    }
    out.varint(token.requiresSource() ? REQUIRES_SOURCE : 0);
    return Arrays.copyOf(out.bytes, out.pos);
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
    long tsidCount = readVarint();
    // Every TSID has an interval, so the interval limit bounds this allocation.
    int capacity = (int) Math.min(tsidCount, maxIntervals);
    Tsid[] tsids = new Tsid[capacity];
    long[][] intervals = new long[capacity][];
    int uuids = 0;
    long total = 0;
    for (int i = 0; i < tsidCount; i++) {
      Tsid tsid = new Tsid(readFixed64(), readFixed64(), readTag());
      if (i > 0 && tsids[i - 1].compareTo(tsid) >= 0) {
        throw malformed("TSID order");
      }
      if ((i == 0 || !tsid.sameUuid(tsids[i - 1])) && ++uuids > maxUuids) {
        throw new TokenRejectedException(
            Check.TOO_MANY_UUIDS, "token names more than " + maxUuids + " source UUIDs");
      }
      long count = readVarint();
      total += count;
      if (count == 0) {
        throw malformed("empty TSID");
      }
      if (total > maxIntervals) {
        throw new TokenRejectedException(
            Check.TOO_MANY_INTERVALS, "token holds more than " + maxIntervals + " intervals");
      }
      tsids[i] = tsid;
      intervals[i] = readIntervals((int) count);
    }
    return tsidCount == 0 ? GtidSet.EMPTY : new GtidSet(tsids, intervals);
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
      int length = (int) Math.min(readVarint(), Integer.MAX_VALUE);
      if (length > ConsistencyToken.MAX_REVISION_KEY_LENGTH * 3 || length > bytes.length - pos) {
        throw malformed("revision key");
      }
      String key = new String(bytes, pos, length, StandardCharsets.UTF_8);
      pos += length;
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
    if (pos != bytes.length) {
      throw malformed("trailing bytes");
    }
  }

  private long[] readIntervals(int count) {
    long[] bounds = new long[count * 2];
    long previousEnd = -1;
    for (int b = 0; b < bounds.length; b += 2) {
      long gap = readVarint();
      long span = readVarint();
      if (gap > GtidSet.MAX_GNO - previousEnd - 2) {
        throw malformed("GNO");
      }
      long start = previousEnd + 2 + gap;
      if (span > GtidSet.MAX_GNO - start) {
        throw malformed("GNO");
      }
      bounds[b] = start;
      bounds[b + 1] = start + span;
      previousEnd = bounds[b + 1];
    }
    return bounds;
  }

  private String readTag() {
    String tag = readAscii(MAX_TAG_LENGTH);
    for (int i = 0; i < tag.length(); i++) {
      char c = tag.charAt(i);
      if (!((c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9'))) {
        throw malformed("tag");
      }
    }
    return tag;
  }

  private String readAscii(int maxLength) {
    long length = readVarint();
    if (length > maxLength || length > bytes.length - pos) {
      throw malformed("length");
    }
    String text = new String(bytes, pos, (int) length, StandardCharsets.ISO_8859_1);
    pos += (int) length;
    return text;
  }

  private long readVarint() {
    long value = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (pos == bytes.length) {
        throw malformed("number");
      }
      byte b = bytes[pos++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw malformed("number");
  }

  private long readFixed64() {
    if (bytes.length - pos < 8) {
      throw malformed("UUID");
    }
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = value << 8 | (bytes[pos++] & 0xff);
    }
    return value;
  }

  private void ascii(String text) {
    varint(text.length());
    raw(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  private void raw(byte[] data) {
    ensure(data.length);
    System.arraycopy(data, 0, bytes, pos, data.length);
    pos += data.length;
  }

  private void fixed64(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      bytes[pos++] = (byte) (value >>> shift);
    }
  }

  private void varint(long value) {
    ensure(10);
    long rest = value;
    while ((rest & ~0x7fL) != 0) {
      bytes[pos++] = (byte) ((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    bytes[pos++] = (byte) rest;
  }

  private void ensure(int more) {
    if (pos + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, pos + more));
    }
  }

  private static TokenRejectedException malformed(String field) {
    return new TokenRejectedException(Check.MALFORMED, "token payload has a malformed " + field);
  }
}

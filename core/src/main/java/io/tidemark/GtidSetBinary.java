package io.tidemark;

import io.tidemark.GtidSetFormatException.Problem;
import io.tidemark.internal.Varint;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The binary form of a GTID set: TSID count, then per TSID the 16 UUID bytes, the tag (length,
 * ASCII; 0 when untagged), the interval count and per interval the distance from the previous
 * interval's end plus two (from 0 for the first) and the length minus one; every number an unsigned
 * LEB128 varint. Only canonical sets can be written: distances cannot express overlapping, touching
 * or unsorted intervals, so every set has one binary form.
 */
final class GtidSetBinary {

  private static final int MAX_TAG_LENGTH = 32;

  private GtidSetBinary() {}

  static void write(GtidSet gtids, ByteArrayOutputStream out) {
    Varint.write(out, gtids.tsidCount());
    for (int i = 0; i < gtids.tsidCount(); i++) {
      Tsid tsid = gtids.tsid(i);
      fixed64(out, tsid.msb);
      fixed64(out, tsid.lsb);
      Varint.write(out, tsid.tag.length());
      out.writeBytes(tsid.tag.getBytes(StandardCharsets.ISO_8859_1));
      long[] bounds = gtids.intervals(i);
      Varint.write(out, bounds.length / 2);
      long previousEnd = -1;
      for (int b = 0; b < bounds.length; b += 2) {
        Varint.write(out, bounds[b] - previousEnd - 2);
        Varint.write(out, bounds[b + 1] - bounds[b]);
        previousEnd = bounds[b + 1];
      }
    }
  }

  static GtidSet read(ByteBuffer in, int maxUuids, int maxIntervals) {
    long tsidCount = number(in, "TSID count");
    // Every TSID has an interval, so the interval limit bounds this allocation.
    int capacity = (int) Math.min(tsidCount, maxIntervals);
    Tsid[] tsids = new Tsid[capacity];
    long[][] intervals = new long[capacity][];
    int uuids = 0;
    long total = 0;
    for (int i = 0; i < tsidCount; i++) {
      if (in.remaining() < 16) {
        throw malformed(in, "UUID");
      }
      Tsid tsid = new Tsid(in.getLong(), in.getLong(), tag(in));
      if (i > 0 && tsids[i - 1].compareTo(tsid) >= 0) {
        throw malformed(in, "TSID order");
      }
      if ((i == 0 || !tsid.sameUuid(tsids[i - 1])) && ++uuids > maxUuids) {
        throw new GtidSetFormatException(
            Problem.TOO_MANY_UUIDS, in.position(), "more than " + maxUuids + " source UUIDs");
      }
      long count = number(in, "interval count");
      total += count;
      if (count == 0) {
        throw malformed(in, "empty TSID");
      }
      if (total > maxIntervals) {
        throw new GtidSetFormatException(
            Problem.TOO_MANY_INTERVALS, in.position(), "more than " + maxIntervals + " intervals");
      }
      tsids[i] = tsid;
      intervals[i] = intervals(in, (int) count);
    }
    return tsidCount == 0 ? GtidSet.EMPTY : new GtidSet(tsids, intervals);
  }

  private static long[] intervals(ByteBuffer in, int count) {
    long[] bounds = new long[count * 2];
    long previousEnd = -1;
    for (int b = 0; b < bounds.length; b += 2) {
      long gap = number(in, "GNO");
      long span = number(in, "GNO");
      if (gap > GtidSet.MAX_GNO - previousEnd - 2) {
        throw malformed(in, "GNO");
      }
      long start = previousEnd + 2 + gap;
      if (span > GtidSet.MAX_GNO - start) {
        throw malformed(in, "GNO");
      }
      bounds[b] = start;
      bounds[b + 1] = start + span;
      previousEnd = bounds[b + 1];
    }
    return bounds;
  }

  private static String tag(ByteBuffer in) {
    long length = number(in, "tag");
    if (length == 0) {
      return "";
    }
    if (length > MAX_TAG_LENGTH || length > in.remaining()) {
      throw malformed(in, "tag");
    }
    byte[] text = new byte[(int) length];
    in.get(text);
    for (int i = 0; i < text.length; i++) {
      byte c = text[i];
      if (!((c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9'))) {
        throw malformed(in, "tag");
      }
    }
    return new String(text, StandardCharsets.ISO_8859_1);
  }

  private static long number(ByteBuffer in, String field) {
    long value = Varint.read(in);
    if (value < 0) {
      throw malformed(in, field);
    }
    return value;
  }

  private static void fixed64(ByteArrayOutputStream out, long value) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (value >>> shift));
    }
  }

  private static GtidSetFormatException malformed(ByteBuffer in, String field) {
    return new GtidSetFormatException(Problem.MALFORMED, in.position(), "malformed " + field);
  }
}

package io.tidemark;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A transaction source identifier: a source UUID, as two longs so that comparing costs two
 * instructions, and a tag that is empty for untagged GTIDs.
 *
 * <p>The order is MySQL's: UUIDs as their lower-case text sorts, which for fixed-width hex is the
 * unsigned order of the 128-bit value, then the untagged entry, then tags by name.
 */
final class Tsid implements Comparable<Tsid> {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  final long msb;
  final long lsb;
  final String tag;

  Tsid(long msb, long lsb, String tag) {
    this.msb = msb;
    this.lsb = lsb;
    this.tag = tag;
  }

  boolean sameUuid(Tsid other) {
    return msb == other.msb && lsb == other.lsb;
  }

  UUID uuid() {
    return new UUID(msb, lsb);
  }

  /** Appends the UUID as MySQL prints it: lower case, dashes after 8, 12, 16 and 20 digits. */
  void appendUuid(StringBuilder out) {
    appendHex(out, msb >>> 32, 8);
    out.append('-');
    appendHex(out, msb >>> 16, 4);
    out.append('-');
    appendHex(out, msb, 4);
    out.append('-');
    appendHex(out, lsb >>> 48, 4);
    out.append('-');
    appendHex(out, lsb, 12);
  }

  private static void appendHex(StringBuilder out, long bits, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out.append(HEX[(int) (bits >>> shift) & 0xf]);
    }
  }

  @Override
  public int compareTo(Tsid other) {
    int c = Long.compareUnsigned(msb, other.msb);
    if (c == 0) {
      c = Long.compareUnsigned(lsb, other.lsb);
    }
    return c != 0 ? c : tag.compareTo(other.tag);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Tsid other && sameUuid(other) && tag.equals(other.tag);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(msb) * 31 + Long.hashCode(lsb) * 17 + tag.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(50);
    appendUuid(out);
    return tag.isEmpty() ? out.toString() : out.append(':').append(tag).toString();
  }
}

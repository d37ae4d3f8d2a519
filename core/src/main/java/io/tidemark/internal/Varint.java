package io.tidemark.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Unsigned LEB128 numbers of up to 63 bits, the integers of Tidemark's binary forms. */
public final class Varint {

  private Varint() {}

  /** Appends {@code value}, which must not be negative. */
  public static void write(ByteArrayOutputStream out, long value) {
    long rest = value;
    while ((rest & ~0x7fL) != 0) {
      out.write((int) ((rest & 0x7f) | 0x80));
      rest >>>= 7;
    }
    out.write((int) rest);
  }

  /**
   * Reads one number at the buffer's position; -1 when the buffer ends inside it or it is longer
   * than 63 bits, so that each format reports the error in its own terms.
   */
  public static long read(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (!in.hasRemaining()) {
        return -1;
      }
      byte b = in.get();
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    return -1;
  }
}

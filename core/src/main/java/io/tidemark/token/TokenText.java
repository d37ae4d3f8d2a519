package io.tidemark.token;

import java.util.Arrays;
import java.util.Base64;

/**
 * The characters of a token's wire form, read by table: the unpadded URL-safe Base64 digits of its
 * parts and the dots between them. Verification decodes or compares every character of a token, so
 * these loops run on every request.
 */
final class TokenText {

  private static final String DIGITS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final int NOT_TOKEN_TEXT = -1;
  private static final int DOT = -2;

  /** Per ASCII character its Base64 digit value, or {@link #DOT}, or {@link #NOT_TOKEN_TEXT}. */
  private static final int[] VALUES = new int[128];

  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  static {
    Arrays.fill(VALUES, NOT_TOKEN_TEXT);
    for (int i = 0; i < DIGITS.length(); i++) {
      VALUES[DIGITS.charAt(i)] = i;
    }
    VALUES['.'] = DOT;
  }

  private TokenText() {}

  /** Whether {@code text} is non-empty and holds only the characters tokens are written with. */
  static boolean isTokenText(CharSequence text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (value(text.charAt(i)) == NOT_TOKEN_TEXT) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code part} has the form of a format version: {@code v} and 1 to 3 digits. */
  static boolean isVersion(String part) {
    if (part.length() < 2 || part.length() > 4 || part.charAt(0) != 'v') {
      return false;
    }
    for (int i = 1; i < part.length(); i++) {
      if (part.charAt(i) < '0' || part.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * Copies the low byte of each character of {@code text[0, to)} to {@code bytes}: the characters
   * themselves where they are ASCII, as they are in a text that verifies.
   */
  @SuppressWarnings("deprecation") // the one String method that copies bytes without allocating
  static void copyLowBytes(String text, int to, byte[] bytes) {
    text.getBytes(0, to, bytes, 0);
  }

  /**
   * Decodes the unpadded URL-safe Base64 in {@code text[from, to)} to {@code out}, as {@link
   * Base64#getUrlDecoder()} decodes text without padding; {@code out} holds at least {@code (to -
   * from) * 3 / 4} bytes.
   *
   * @return the number of bytes decoded, or -1 where that decoder throws: a character that is no
   *     digit, or a last group of one digit
   */
  static int decode(String text, int from, int to, byte[] out) {
    int length = to - from;
    if (length % 4 == 1) {
      return -1;
    }
    int groupsEnd = from + length / 4 * 4;
    int n = 0;
    for (int in = from; in < groupsEnd; in += 4) {
      int bits =
          value(text.charAt(in)) << 18
              | value(text.charAt(in + 1)) << 12
              | value(text.charAt(in + 2)) << 6
              | value(text.charAt(in + 3));
      if (bits < 0) {
        return -1;
      }
      out[n] = (byte) (bits >> 16);
      out[n + 1] = (byte) (bits >> 8);
      out[n + 2] = (byte) bits;
      n += 3;
    }
    if (groupsEnd < to) {
      // Two or three digits left: one or two bytes; like the JDK, the bits past them are ignored.
      boolean three = groupsEnd + 2 < to;
      int bits =
          value(text.charAt(groupsEnd)) << 18
              | value(text.charAt(groupsEnd + 1)) << 12
              | (three ? value(text.charAt(groupsEnd + 2)) << 6 : 0);
      if (bits < 0) {
        return -1;
      }
      out[n++] = (byte) (bits >> 16);
      if (three) {
        out[n++] = (byte) (bits >> 8);
      }
    }
    return n;
  }

  /**
   * Whether {@code text} from {@code from} to its end is the Base64 of {@code mac}, which is
   * encoded to {@code scratch}; compared in constant time, on the text, so that the one spelling
   * {@link Base64.Encoder} writes is the only one that matches.
   */
  static boolean isBase64Of(byte[] mac, byte[] scratch, String text, int from) {
    int length = BASE64.encode(mac, scratch);
    if (text.length() - from != length) {
      return false;
    }
    int difference = 0;
    for (int i = 0; i < length; i++) {
      difference |= scratch[i] ^ text.charAt(from + i);
    }
    return difference == 0;
  }

  /** Base64 in the token alphabet, for encoding. */
  static Base64.Encoder encoder() {
    return BASE64;
  }

  /** The digit's value, negative for a dot and for a character that is not token text. */
  private static int value(char c) {
    return c < VALUES.length ? VALUES[c] : NOT_TOKEN_TEXT;
  }
}

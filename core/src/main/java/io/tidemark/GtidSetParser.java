package io.tidemark;

import io.tidemark.GtidSetFormatException.Problem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads the text form of a GTID set in one pass, with no regular expressions and no boxing per
 * interval; text that is already canonical, as servers print it, is never sorted or merged.
 *
 * <p>Accepted, as MySQL accepts it: upper- and lower-case UUIDs, whitespace (space, tab, line feed,
 * vertical tab, form feed, carriage return) around every separator, empty list elements ({@code
 * "a,,b"}), GNOs with leading zeros, overlapping, touching and repeated intervals and UUIDs in any
 * order, and tags as MySQL 8.3 writes them ({@code uuid:1-5:tag_a:1-3}).
 *
 * <p>Refused although MySQL 8.0 accepts it, because the server's reading makes a requirement
 * silently weaker or lets text hide behind it:
 *
 * <ul>
 *   <li>an inverted interval ({@code 5-3}) and an interval without an end ({@code 1-}), which the
 *       server reads as no GTIDs at all;
 *   <li>a UUID without intervals ({@code uuid} or {@code uuid,}), which the server reads as no
 *       GTIDs but which would still introduce the UUID to a server it is sent to;
 *   <li>a sign before a GNO ({@code +3});
 *   <li>a NUL character, where the server stops reading and ignores the rest.
 * </ul>
 *
 * <p>Refused as MySQL refuses it: GNO 0, GNOs above {@link GtidSet#MAX_GNO}, UUIDs not written as
 * 36 characters with dashes, anything else after an interval. A tag without intervals is refused
 * too.
 */
final class GtidSetParser {

  private static final int UUID_LENGTH = 36;
  private static final int MAX_TAG_LENGTH = 32;

  private final CharSequence text;
  private final int length;
  private final GtidLimits limits;
  private final List<Group> groups = new ArrayList<>();
  private int pos;
  private int uuids;
  private int intervals;

  private GtidSetParser(CharSequence text, GtidLimits limits) {
    this.text = text;
    this.length = text.length();
    this.limits = limits;
  }

  static GtidSet parse(CharSequence text, GtidLimits limits) {
    if (text.length() > limits.maxTextLength()) {
      throw new GtidSetFormatException(
          Problem.TOO_LONG,
          limits.maxTextLength(),
          "GTID set text of "
              + text.length()
              + " characters is longer than the limit of "
              + limits.maxTextLength());
    }
    return new GtidSetParser(text, limits).parse();
  }

  private GtidSet parse() {
    skipWhitespace();
    while (pos < length) {
      if (text.charAt(pos) != ',') {
        element();
        skipWhitespace();
        if (pos < length && text.charAt(pos) != ',') {
          throw malformed("expected ',' or the end of the set");
        }
      }
      if (pos < length) {
        pos++;
        skipWhitespace();
      }
    }
    return build();
  }

  private void element() {
    if (++uuids > limits.maxUuids()) {
      throw new GtidSetFormatException(
          Problem.TOO_MANY_UUIDS, pos, "more than " + limits.maxUuids() + " UUIDs");
    }
    int uuidAt = pos;
    long msb = hex(uuidAt, 0, 8) << 32 | hex(uuidAt, 9, 4) << 16 | hex(uuidAt, 14, 4);
    long lsb = hex(uuidAt, 19, 4) << 48 | hex(uuidAt, 24, 12);
    pos = uuidAt + UUID_LENGTH;
    skipWhitespace();
    if (!at(':')) {
      throw malformed("expected ':' and an interval after the UUID");
    }
    Group group = null;
    String tag = "";
    while (at(':')) {
      pos++;
      skipWhitespace();
      if (pos < length && isDigit(text.charAt(pos))) {
        if (group == null) {
          group = new Group(new Tsid(msb, lsb, tag));
          groups.add(group);
        }
        interval(group);
      } else if (pos < length && isTagStart(text.charAt(pos)) && (group != null || tag.isEmpty())) {
        tag = tag();
        group = null;
      } else {
        throw malformed(group == null ? "expected a GNO" : "expected a GNO or a tag");
      }
      skipWhitespace();
    }
    if (group == null) {
      throw malformed("expected ':' and an interval after the tag '" + tag + "'");
    }
  }

  private void interval(Group group) {
    if (++intervals > limits.maxIntervals()) {
      throw new GtidSetFormatException(
          Problem.TOO_MANY_INTERVALS, pos, "more than " + limits.maxIntervals() + " intervals");
    }
    int startAt = pos;
    long start = gno();
    long end = start;
    skipWhitespace();
    if (at('-')) {
      pos++;
      skipWhitespace();
      end = gno();
    }
    if (end < start) {
      pos = startAt;
      throw malformed("inverted interval " + start + "-" + end);
    }
    group.add(start, end);
  }

  private long gno() {
    int startAt = pos;
    if (pos >= length || !isDigit(text.charAt(pos))) {
      throw malformed("expected a GNO");
    }
    long value = 0;
    while (pos < length && isDigit(text.charAt(pos))) {
      int digit = text.charAt(pos) - '0';
      if (value > (GtidSet.MAX_GNO - digit) / 10) {
        pos = startAt;
        throw malformed("GNO above " + GtidSet.MAX_GNO);
      }
      value = value * 10 + digit;
      pos++;
    }
    if (value == 0) {
      pos = startAt;
      throw malformed("GNO 0 is not a transaction");
    }
    return value;
  }

  private String tag() {
    int startAt = pos;
    while (pos < length && (isTagStart(text.charAt(pos)) || isDigit(text.charAt(pos)))) {
      if (pos - startAt == MAX_TAG_LENGTH) {
        throw malformed("tag longer than " + MAX_TAG_LENGTH + " characters");
      }
      pos++;
    }
    return text.subSequence(startAt, pos).toString().toLowerCase(Locale.ROOT);
  }

  private long hex(int uuidAt, int offset, int digits) {
    if (uuidAt + UUID_LENGTH > length) {
      throw malformed("expected a UUID of 36 characters");
    }
    if (offset > 0 && text.charAt(uuidAt + offset - 1) != '-') {
      pos = uuidAt + offset - 1;
      throw malformed("expected '-' in the UUID");
    }
    long bits = 0;
    for (int i = uuidAt + offset; i < uuidAt + offset + digits; i++) {
      int value = hexValue(text.charAt(i));
      if (value < 0) {
        pos = i;
        throw malformed("expected a hex digit in the UUID");
      }
      bits = bits << 4 | value;
    }
    return bits;
  }

  private GtidSet build() {
    if (groups.isEmpty()) {
      return GtidSet.EMPTY;
    }
    Group[] sorted = groups.toArray(new Group[0]);
    if (!strictlyAscending(sorted)) {
      Arrays.sort(sorted, (a, b) -> a.tsid.compareTo(b.tsid));
    }
    Tsid[] tsids = new Tsid[sorted.length];
    long[][] bounds = new long[sorted.length][];
    int n = 0;
    for (Group group : sorted) {
      long[] canonical = group.canonical();
      if (n > 0 && tsids[n - 1].equals(group.tsid)) {
        bounds[n - 1] = GnoIntervals.union(bounds[n - 1], canonical);
      } else {
        tsids[n] = group.tsid;
        bounds[n++] = canonical;
      }
    }
    return new GtidSet(Arrays.copyOf(tsids, n), Arrays.copyOf(bounds, n));
  }

  private static boolean strictlyAscending(Group[] groups) {
    for (int i = 1; i < groups.length; i++) {
      if (groups[i - 1].tsid.compareTo(groups[i].tsid) >= 0) {
        return false;
      }
    }
    return true;
  }

  private void skipWhitespace() {
    while (pos < length && isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private boolean at(char c) {
    return pos < length && text.charAt(pos) == c;
  }

  private GtidSetFormatException malformed(String problem) {
    String found = pos < length ? "'" + printable(text.charAt(pos)) + "'" : "the end of the text";
    return new GtidSetFormatException(Problem.MALFORMED, pos, problem + ", found " + found);
  }

  private static String printable(char c) {
    return c >= ' ' && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  private static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    char lower = (char) (c | 0x20);
    return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isTagStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  /** The intervals written for one TSID in one place of the text, in the order written. */
  private static final class Group {
    final Tsid tsid;
    long[] bounds = new long[4];
    int size;
    boolean canonical = true;

    Group(Tsid tsid) {
      this.tsid = tsid;
    }

    void add(long start, long end) {
      if (size > 0 && start <= bounds[size - 1] + 1) {
        canonical = false;
      }
      if (size == bounds.length) {
        bounds = Arrays.copyOf(bounds, size * 2);
      }
      bounds[size++] = start;
      bounds[size++] = end;
    }

    long[] canonical() {
      return canonical ? Arrays.copyOf(bounds, size) : GnoIntervals.normalize(bounds, size);
    }
  }
}

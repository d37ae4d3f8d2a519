package io.tidemark;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.BinaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * An immutable set of MySQL global transaction identifiers: for each source UUID, and each tag of
 * MySQL 8.3 and later, the GNOs as closed intervals. It is also the form of a PostgreSQL position:
 * one UUID per cluster and timeline, the WAL position as the interval from 1.
 *
 * <p>{@link #parse} reads the text servers print and accept ({@code
 * 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7, 0ad6eae9-...:1-9}); {@link #toString()} prints the
 * canonical form, identical to what MySQL prints for the same set: UUIDs sorted and in lower case,
 * intervals sorted and merged, elements separated by a comma and a line feed. Equal sets have equal
 * text, {@code equals} and {@code hashCode}.
 *
 * <p>Operations walk sorted arrays of longs: no regular expressions, no boxed numbers, no hashing.
 */
public final class GtidSet {

  /**
   * The largest GNO MySQL accepts, 2<sup>63</sup>&nbsp;&minus;&nbsp;2: the server keeps interval
   * ends exclusive in a signed 64-bit integer.
   */
  public static final long MAX_GNO = Long.MAX_VALUE - 1;

  /** The set without GTIDs; its text is the empty string. */
  public static final GtidSet EMPTY = new GtidSet(new Tsid[0], new long[0][]);

  private static final long[] NONE = {};

  private final Tsid[] tsids;
  private final long[][] intervals;

  /** Takes ownership of canonical arrays: ascending distinct TSIDs, each with intervals. */
  GtidSet(Tsid[] tsids, long[][] intervals) {
    this.tsids = tsids;
    this.intervals = intervals;
  }

  /**
   * Reads a GTID set as MySQL writes it, of at most 256 KiB of text, 2,048 UUIDs and 16,384
   * intervals, refusing text beyond a limit as soon as it is passed; text longer than the length
   * limit is refused before any of it is read.
   *
   * <p>Stricter than the server in a few places where the server's reading would silently weaken a
   * requirement: inverted intervals ({@code 5-3}), intervals without an end ({@code 1-}), UUIDs
   * without intervals, signed GNOs and NUL characters are refused, where MySQL 8.0 reads the first
   * three as no GTIDs and ignores everything after a NUL. Tagged GTIDs ({@code uuid:tag:1-5}) are
   * accepted although only MySQL 8.3 and later accept them.
   *
   * @throws GtidSetFormatException when the text is not a GTID set or exceeds the limits, with the
   *     reason and the position where reading stopped
   */
  public static GtidSet parse(CharSequence text) {
    return parse(text, GtidLimits.DEFAULTS);
  }

  /** Reads a GTID set as {@link #parse(CharSequence)} does, within {@code limits}. */
  static GtidSet parse(CharSequence text, GtidLimits limits) {
    return GtidSetParser.parse(text, limits);
  }

  /** Whether this set holds no GTIDs. */
  public boolean isEmpty() {
    return tsids.length == 0;
  }

  /** The number of distinct source UUIDs; the tags of one UUID count once. */
  public int uuidCount() {
    int count = 0;
    for (int i = 0; i < tsids.length; i++) {
      if (i == 0 || !tsids[i].sameUuid(tsids[i - 1])) {
        count++;
      }
    }
    return count;
  }

  /** The number of intervals in the canonical form, over all UUIDs and tags. */
  public int intervalCount() {
    int count = 0;
    for (long[] bounds : intervals) {
      count += bounds.length / 2;
    }
    return count;
  }

  /** The source UUIDs, in canonical order. */
  public Set<UUID> uuids() {
    Set<UUID> uuids = new LinkedHashSet<>();
    for (Tsid tsid : tsids) {
      uuids.add(tsid.uuid());
    }
    return Collections.unmodifiableSet(uuids);
  }

  /** The highest GNO of {@code uuid}'s untagged GTIDs in this set, 0 when it has none. */
  public long lastGno(UUID uuid) {
    for (int i = 0; i < tsids.length; i++) {
      Tsid tsid = tsids[i];
      if (tsid.msb == uuid.getMostSignificantBits()
          && tsid.lsb == uuid.getLeastSignificantBits()
          && tsid.tag.isEmpty()) {
        return intervals[i][intervals[i].length - 1];
      }
    }
    return 0;
  }

  /** Whether any GTID of this set carries a tag (MySQL 8.3 and later). */
  public boolean hasTags() {
    for (Tsid tsid : tsids) {
      if (!tsid.tag.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every source this set names, a UUID with its tag when it has one, is also named by
   * {@code other}. No allocation: it runs on every read that carries a token.
   */
  public boolean namesOnlySourcesOf(GtidSet other) {
    int j = 0;
    for (Tsid tsid : tsids) {
      while (j < other.tsids.length && other.tsids[j].compareTo(tsid) < 0) {
        j++;
      }
      if (j == other.tsids.length || !other.tsids[j].equals(tsid)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The part of this set whose sources, a UUID with its tag when it has one, {@code other} also
   * names: a replica's executed set without the transactions of sources the cluster does not know
   * (errant ones, run on the replica itself).
   */
  public GtidSet restrictedToSourcesOf(GtidSet other) {
    if (namesOnlySourcesOf(other)) {
      return this;
    }
    Tsid[] keptTsids = new Tsid[tsids.length];
    long[][] keptIntervals = new long[tsids.length][];
    int kept = 0;
    int j = 0;
    for (int i = 0; i < tsids.length; i++) {
      while (j < other.tsids.length && other.tsids[j].compareTo(tsids[i]) < 0) {
        j++;
      }
      if (j < other.tsids.length && other.tsids[j].equals(tsids[i])) {
        keptTsids[kept] = tsids[i];
        keptIntervals[kept] = intervals[i];
        kept++;
      }
    }
    return kept == 0
        ? EMPTY
        : new GtidSet(Arrays.copyOf(keptTsids, kept), Arrays.copyOf(keptIntervals, kept));
  }

  /**
   * Whether every GTID of {@code other} is in this set, as MySQL's {@code GTID_SUBSET(other,
   * this)}: a server whose executed set contains a token's set has executed the token.
   */
  public boolean containsAll(GtidSet other) {
    int i = 0;
    for (int j = 0; j < other.tsids.length; j++) {
      while (i < tsids.length && tsids[i].compareTo(other.tsids[j]) < 0) {
        i++;
      }
      if (i == tsids.length
          || !tsids[i].equals(other.tsids[j])
          || !GnoIntervals.containsAll(intervals[i], other.intervals[j])) {
        return false;
      }
    }
    return true;
  }

  /** The GTIDs in this set, in {@code other}, or in both. */
  public GtidSet union(GtidSet other) {
    if (other.isEmpty() || this == other) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return combine(other, true, true, GnoIntervals::union);
  }

  /** The GTIDs in this set that are not in {@code other}, as MySQL's {@code GTID_SUBTRACT}. */
  public GtidSet subtract(GtidSet other) {
    if (other.isEmpty() || isEmpty()) {
      return this;
    }
    return combine(other, true, false, GnoIntervals::subtract);
  }

  /** The GTIDs in both this set and {@code other}. */
  public GtidSet intersection(GtidSet other) {
    return combine(other, false, false, GnoIntervals::intersect);
  }

  /**
   * This set with each gap between two of its intervals filled where {@code known} holds the whole
   * gap, for one source and tag at a time; the result contains this set and has no more intervals.
   *
   * <p>Meant to keep a token small: pass what the source is known to have executed, so that every
   * GTID added exists and the larger requirement stays one the cluster can meet. A server that
   * contains the result contains this set.
   */
  public GtidSet fillGaps(GtidSet known) {
    long[][] filled = intervals.clone();
    int k = 0;
    for (int i = 0; i < tsids.length; i++) {
      while (k < known.tsids.length && known.tsids[k].compareTo(tsids[i]) < 0) {
        k++;
      }
      if (k < known.tsids.length && known.tsids[k].equals(tsids[i])) {
        filled[i] = GnoIntervals.fillGaps(intervals[i], known.intervals[k]);
      }
    }
    return new GtidSet(tsids, filled);
  }

  /**
   * Merge-walks both TSID lists, combining the intervals of TSIDs in both and keeping those only in
   * this set or only in {@code other} as asked; empty results are dropped.
   */
  private GtidSet combine(
      GtidSet other, boolean keepOnlyThis, boolean keepOnlyOther, BinaryOperator<long[]> op) {
    int capacity = tsids.length + other.tsids.length;
    Tsid[] outTsids = new Tsid[capacity];
    long[][] outIntervals = new long[capacity][];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < tsids.length || j < other.tsids.length) {
      int c =
          i == tsids.length ? 1 : j == other.tsids.length ? -1 : tsids[i].compareTo(other.tsids[j]);
      Tsid tsid;
      long[] result;
      if (c < 0) {
        tsid = tsids[i];
        result = keepOnlyThis ? intervals[i] : NONE;
        i++;
      } else if (c > 0) {
        tsid = other.tsids[j];
        result = keepOnlyOther ? other.intervals[j] : NONE;
        j++;
      } else {
        tsid = tsids[i];
        result = op.apply(intervals[i], other.intervals[j]);
        i++;
        j++;
      }
      if (result.length > 0) {
        outTsids[n] = tsid;
        outIntervals[n++] = result;
      }
    }
    return n == 0 ? EMPTY : new GtidSet(Arrays.copyOf(outTsids, n), Arrays.copyOf(outIntervals, n));
  }

  /**
   * Appends this set's binary form, for formats that embed a set (the consistency token): shorter
   * than the text, and like the text one form per set.
   */
  public void writeBinary(ByteArrayOutputStream out) {
    GtidSetBinary.write(this, Objects.requireNonNull(out));
  }

  /**
   * Reads a set that {@link #writeBinary} wrote, from the buffer's position on, leaving the
   * position after it; a set with more than {@code maxUuids} source UUIDs or {@code maxIntervals}
   * intervals is refused before anything is allocated for it.
   *
   * @throws GtidSetFormatException when the bytes are not a set's binary form or exceed the limits;
   *     its position is the buffer's
   */
  public static GtidSet readBinary(ByteBuffer in, int maxUuids, int maxIntervals) {
    return GtidSetBinary.read(in, maxUuids, maxIntervals);
  }

  // Package-private views for the binary form, which must not copy on the hot path.

  int tsidCount() {
    return tsids.length;
  }

  Tsid tsid(int index) {
    return tsids[index];
  }

  long[] intervals(int index) {
    return intervals[index];
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof GtidSet other
        && Arrays.equals(tsids, other.tsids)
        && Arrays.deepEquals(intervals, other.intervals);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(tsids) * 31 + Arrays.deepHashCode(intervals);
  }

  /** The canonical text, as MySQL prints this set; the empty string for {@link #EMPTY}. */
  @Override
  public String toString() {
    return text(",\n");
  }

  /** The canonical text on one line, its elements separated by a comma only: for logs and JSON. */
  public String toSingleLineString() {
    return text(",");
  }

  private String text(String separator) {
    StringBuilder out = new StringBuilder(tsids.length * 48);
    for (int i = 0; i < tsids.length; i++) {
      if (i == 0 || !tsids[i].sameUuid(tsids[i - 1])) {
        if (i > 0) {
          out.append(separator);
        }
        tsids[i].appendUuid(out);
      }
      if (!tsids[i].tag.isEmpty()) {
        out.append(':').append(tsids[i].tag);
      }
      long[] bounds = intervals[i];
      for (int b = 0; b < bounds.length; b += 2) {
        out.append(':').append(bounds[b]);
        if (bounds[b + 1] != bounds[b]) {
          out.append('-').append(bounds[b + 1]);
        }
      }
    }
    return out.toString();
  }
}

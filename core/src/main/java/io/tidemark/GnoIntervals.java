package io.tidemark;

import java.util.Arrays;

/**
 * Set algebra on one source's GNOs, held as a sorted array of closed intervals {@code [start0,
 * end0, start1, end1, ...]}.
 *
 * <p>Every array these methods take and return is canonical: non-empty intervals in ascending
 * order, separated by at least one missing GNO (adjacent intervals are merged), so that equal sets
 * have equal arrays. Arrays are never modified after they are returned.
 */
final class GnoIntervals {

  private GnoIntervals() {}

  static long[] union(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      long start;
      long end;
      if (j >= b.length || (i < a.length && a[i] <= b[j])) {
        start = a[i];
        end = a[i + 1];
        i += 2;
      } else {
        start = b[j];
        end = b[j + 1];
        j += 2;
      }
      // end + 1 cannot overflow: GNOs stop one below Long.MAX_VALUE.
      if (n > 0 && start <= out[n - 1] + 1) {
        out[n - 1] = Math.max(out[n - 1], end);
      } else {
        out[n++] = start;
        out[n++] = end;
      }
    }
    return trim(out, n);
  }

  static long[] subtract(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int n = 0;
    int j = 0;
    for (int i = 0; i < a.length; i += 2) {
      long start = a[i];
      long end = a[i + 1];
      while (j < b.length && b[j + 1] < start) {
        j += 2;
      }
      int k = j;
      while (start <= end && k < b.length && b[k] <= end) {
        if (b[k] > start) {
          out[n++] = start;
          out[n++] = b[k] - 1;
        }
        start = Math.max(start, b[k + 1] + 1);
        k += 2;
      }
      if (start <= end) {
        out[n++] = start;
        out[n++] = end;
      }
    }
    return trim(out, n);
  }

  static long[] intersect(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      long start = Math.max(a[i], b[j]);
      long end = Math.min(a[i + 1], b[j + 1]);
      if (start <= end) {
        out[n++] = start;
        out[n++] = end;
      }
      if (a[i + 1] < b[j + 1]) {
        i += 2;
      } else {
        j += 2;
      }
    }
    return trim(out, n);
  }

  /** Whether every GNO of {@code b} is in {@code a}. */
  static boolean containsAll(long[] a, long[] b) {
    int i = 0;
    for (int j = 0; j < b.length; j += 2) {
      while (i < a.length && a[i + 1] < b[j]) {
        i += 2;
      }
      if (i >= a.length || a[i] > b[j] || a[i + 1] < b[j + 1]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Fills each gap between two intervals of {@code a} that {@code known} holds entirely, joining
   * the two; partly known gaps stay open, so the result never has more intervals than {@code a}.
   */
  static long[] fillGaps(long[] a, long[] known) {
    long[] out = new long[a.length];
    out[0] = a[0];
    out[1] = a[1];
    int n = 2;
    int k = 0;
    for (int i = 2; i < a.length; i += 2) {
      long gapStart = a[i - 1] + 1;
      long gapEnd = a[i] - 1;
      while (k < known.length && known[k + 1] < gapStart) {
        k += 2;
      }
      if (k < known.length && known[k] <= gapStart && known[k + 1] >= gapEnd) {
        out[n - 1] = a[i + 1];
      } else {
        out[n++] = a[i];
        out[n++] = a[i + 1];
      }
    }
    return trim(out, n);
  }

  /**
   * Sorts and merges the first {@code length} entries of {@code raw}, intervals in any order that
   * may overlap or touch; divides and conquers with {@link #union} so that no interval is boxed.
   */
  static long[] normalize(long[] raw, int length) {
    return normalize(raw, 0, length / 2);
  }

  private static long[] normalize(long[] raw, int fromInterval, int toInterval) {
    if (toInterval - fromInterval == 1) {
      return new long[] {raw[2 * fromInterval], raw[2 * fromInterval + 1]};
    }
    int mid = (fromInterval + toInterval) >>> 1;
    return union(normalize(raw, fromInterval, mid), normalize(raw, mid, toInterval));
  }

  private static long[] trim(long[] out, int n) {
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}

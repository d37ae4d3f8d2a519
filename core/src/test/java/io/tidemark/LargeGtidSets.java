package io.tidemark;

/** GTID sets beyond {@link GtidSet#parse(CharSequence)}'s limits, for tests of other limits. */
public final class LargeGtidSets {

  private static final GtidLimits LARGE = new GtidLimits(10_000_000, 100_000, 1_000_000);

  private LargeGtidSets() {}

  /** {@code text} read with room for 100 000 UUIDs and 1 000 000 intervals. */
  public static GtidSet parse(CharSequence text) {
    return GtidSet.parse(text, LARGE);
  }
}

package io.tidemark;

/**
 * Bounds that {@link GtidSet#parse(CharSequence, GtidLimits)} enforces while it reads, so that
 * runaway or hostile text is refused after a bounded amount of work: the length before the first
 * character is read, the counts as soon as one is exceeded.
 *
 * <p>Counts are taken as written, before duplicates merge: a UUID written twice counts twice. That
 * keeps the work per accepted character constant and never accepts more than the limits say.
 *
 * @param maxTextLength most characters accepted
 * @param maxUuids most source UUIDs written
 * @param maxIntervals most GNO intervals written
 */
record GtidLimits(int maxTextLength, int maxUuids, int maxIntervals) {

  /** Default for {@link #maxTextLength()}: room for a busy server's {@code gtid_executed}. */
  static final int DEFAULT_MAX_TEXT_LENGTH = 256 * 1024;

  /** Default for {@link #maxUuids()}. */
  static final int DEFAULT_MAX_UUIDS = 2_048;

  /** Default for {@link #maxIntervals()}. */
  static final int DEFAULT_MAX_INTERVALS = 16_384;

  /** The defaults, used by {@link GtidSet#parse(CharSequence)}. */
  static final GtidLimits DEFAULTS =
      new GtidLimits(DEFAULT_MAX_TEXT_LENGTH, DEFAULT_MAX_UUIDS, DEFAULT_MAX_INTERVALS);

  /**
   * Checks that every limit is positive.
   *
   * @throws IllegalArgumentException when one is not
   */
  public GtidLimits {
    if (maxTextLength < 1 || maxUuids < 1 || maxIntervals < 1) {
      throw new IllegalArgumentException(
          "limits must be positive: maxTextLength="
              + maxTextLength
              + ", maxUuids="
              + maxUuids
              + ", maxIntervals="
              + maxIntervals);
    }
  }
}

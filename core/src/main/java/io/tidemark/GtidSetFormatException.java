package io.tidemark;

/**
 * Thrown when text is not a GTID set that {@link GtidSet#parse} accepts, naming the reason and the
 * zero-based character position where reading stopped.
 */
public final class GtidSetFormatException extends TidemarkException {

  private static final long serialVersionUID = 1L;

  /** Why the text was refused. */
  public enum Problem {
    /** The text is longer than the limit (256 KiB); none of it was read. */
    TOO_LONG,
    /** The text does not follow the GTID set syntax, or a GNO is out of range. */
    MALFORMED,
    /** The text names more UUIDs than the limit (2,048). */
    TOO_MANY_UUIDS,
    /** The text holds more intervals than the limit (16,384). */
    TOO_MANY_INTERVALS
  }

  private final Problem reason;
  private final int position;

  GtidSetFormatException(Problem reason, int position, String message) {
    super(message + " at position " + position, false);
    this.reason = reason;
    this.position = position;
  }

  @Override
  public Problem reason() {
    return reason;
  }

  /** Zero-based index of the character where the problem was found. */
  public int position() {
    return position;
  }
}

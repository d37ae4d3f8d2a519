package io.tidemark.token;

import io.tidemark.TidemarkException;

/**
 * Thrown when a token or header would be larger than the configured limits allow, even after the
 * caller's compaction; nothing is sent, because a token cut down to size would be a weaker one. The
 * caller treats the scope as one whose writes cannot be vouched for, and reads from the source.
 */
public final class TokenOverflowException extends TidemarkException {

  private static final long serialVersionUID = 1L;

  /** Which limit the token or header would exceed. */
  public enum Limit {
    /** More source UUIDs than the limit. */
    TOO_MANY_UUIDS,
    /** More GTID intervals than the limit. */
    TOO_MANY_INTERVALS,
    /** An encoded token or header longer than the limit. */
    TOO_LARGE
  }

  private final Limit reason;

  TokenOverflowException(Limit reason, String message) {
    super(message, true);
    this.reason = reason;
  }

  @Override
  public Limit reason() {
    return reason;
  }
}

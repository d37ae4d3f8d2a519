package io.tidemark.token;

import io.tidemark.TidemarkException;

/**
 * Thrown when a token or a token header from outside fails verification, with the reason of the
 * first check that failed. Checks run in the order of the reasons below, cheapest and least
 * trusting first, so that nothing is parsed before its size is known and nothing is believed before
 * its signature is.
 */
public final class TokenRejectedException extends TidemarkException {

  private static final long serialVersionUID = 1L;

  /** Why a token was rejected, in the order the checks run. */
  public enum Check {
    /** Longer than the configured limit; nothing of it was read. */
    TOO_LARGE,
    /** Not a token, or not a header of {@code cluster=token} entries. */
    MALFORMED,
    /** Written in a format version this codec does not read. */
    UNSUPPORTED_VERSION,
    /** Signed with a key id the key ring does not hold. */
    UNKNOWN_KEY_ID,
    /** The signature does not match: the token was altered or signed with another secret. */
    BAD_SIGNATURE,
    /** Issued for another cluster than the one it is verified for. */
    WRONG_CLUSTER,
    /** Issued longer ago than the time to live, allowing for clock skew. */
    EXPIRED,
    /** Issued later than now, by more than the allowed clock skew. */
    FROM_THE_FUTURE,
    /** Names more source UUIDs than the limit. */
    TOO_MANY_UUIDS,
    /** Holds more GTID intervals than the limit. */
    TOO_MANY_INTERVALS
  }

  private final Check reason;

  TokenRejectedException(Check reason, String message) {
    super(message, false);
    this.reason = reason;
  }

  @Override
  public Check reason() {
    return reason;
  }
}

package io.tidemark;

/** What a read does when the replica has not executed its token within the budget. */
public enum ReadPolicy {
  /**
   * Reads on the source, after checking in the same connection that the source has executed the
   * token ({@link Reason#TOKEN_NOT_ON_SOURCE} otherwise); admission-limited ({@link
   * Reason#SOURCE_FALLBACK_LIMITED} when full).
   */
  FALLBACK_TO_SOURCE,
  /** Waits again on the replica with growing pauses while the budget lasts, then fails. */
  RETRY,
  /** Fails at once with {@link ConsistentReadException}. */
  FAIL
}

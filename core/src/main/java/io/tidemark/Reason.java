package io.tidemark;

/**
 * Why a read ran where it ran, or why it did not run: the stable codes of execution records,
 * metrics tags and {@link ConsistentReadException}.
 */
public enum Reason {
  /** On a replica already known to contain the token: no wait was sent. */
  REPLICA_CAUGHT_UP(true),
  /** On a replica after it executed the token within the budget. */
  REPLICA_AFTER_WAIT(true),
  /** On a replica without a token: bounded staleness only. */
  REPLICA_NO_TOKEN(true),
  /** On the source after the replica did not catch up, the source verified to hold the token. */
  SOURCE_FALLBACK(true),
  /**
   * On the source because the scope is dirty: a write's GTID could not be captured, or, in the
   * starter's automatic mode, the thread had no context to capture its writes into.
   */
  SOURCE_BY_POLICY(true),
  /**
   * On the source because the unit of work is about to write (a request with an unsafe HTTP
   * method), or its statement runs on the source only (a locking read, an advisory lock, a
   * procedure call, a temporary table, a session variable, the {@code tidemark:source} hint): what
   * it reads may be written back, so it reads everything committed.
   */
  SOURCE_FOR_WRITE(true),
  /** The replica did not execute the token within the budget. */
  WAIT_TIMEOUT(false),
  /** No time was left for a wait; a non-blocking check found the token not executed. */
  BUDGET_EXHAUSTED(false),
  /** The source has not executed the token: writes were lost, e.g. in a failover. */
  TOKEN_NOT_ON_SOURCE(false),
  /** Too many reads fall back to the source at once. */
  SOURCE_FALLBACK_LIMITED(false),
  /** No connection could be had within the budget. */
  DATABASE_BUSY(false),
  /** The row read is older than the revision the read requires. */
  REVISION_NOT_REACHED(false),
  /** The token names a source UUID this cluster does not know; nothing was sent to a server. */
  TOKEN_REJECTED(false),
  /** No replica can serve reads: none available, read-only, in GTID mode, without errant GTIDs. */
  NO_READABLE_REPLICA(false),
  /** Every readable replica is further behind than the lag threshold. */
  REPLICA_LAG_EXCEEDED(false),
  /** No node accepts writes (mid-failover, or the source is down). */
  NO_WRITABLE_SOURCE(false),
  /** More than one node accepts writes: writes are refused rather than sent to a guess. */
  SPLIT_BRAIN(false),
  /** The replica connection failed during the wait. */
  REPLICA_ERROR(false),
  /** The source connection failed, or did not answer within the budget and its grace. */
  SOURCE_ERROR(false),
  /** The connection failed after a commit was sent and before it was answered: it may have. */
  COMMIT_OUTCOME_UNKNOWN(false);

  private final boolean served;

  Reason(boolean served) {
    this.served = served;
  }

  /** Whether a read with this reason returned data. */
  public boolean served() {
    return served;
  }
}

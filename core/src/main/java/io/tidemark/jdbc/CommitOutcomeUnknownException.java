package io.tidemark.jdbc;

import io.tidemark.Reason;
import io.tidemark.internal.Failures;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

/**
 * The connection to the source failed after a commit was sent and before the server answered it:
 * the writes may have committed, or not. Not a failure to report as one: the context is dirty, so
 * the answer's token covers the writes should they have committed, and a client should read before
 * it writes again. SQLState {@code 08007}, "transaction resolution unknown"; the driver's exception
 * is the cause.
 */
public final class CommitOutcomeUnknownException extends SQLNonTransientConnectionException {

  private static final long serialVersionUID = 1L;

  /** SQLSTATE "unable to establish connection": a write that ran nowhere, as no source took it. */
  private static final String NOT_CONNECTED = "08001";

  /** An unknown outcome the driver reported as {@code cause}. */
  public CommitOutcomeUnknownException(SQLException cause) {
    super(
        "the connection failed before the commit was answered, so the writes may have committed: "
            + cause.getMessage(),
        "08007",
        cause);
  }

  /**
   * {@code failure} as an unknown outcome when it reports a lost connection (SQLState class 08),
   * else {@code failure} itself: a commit the server refused did not happen, nor did a write that
   * no connection took ({@code 08001}: a writer that found no source, or whose source refused it).
   */
  static Throwable ifConnectionLost(Throwable failure) {
    return failure instanceof SQLException sql && lostConnection(sql)
        ? new CommitOutcomeUnknownException(sql)
        : failure;
  }

  /** Whether {@code failure} lost a connection a statement or commit was sent on. */
  static boolean lostConnection(SQLException failure) {
    return Failures.isConnectionFailure(failure) && !NOT_CONNECTED.equals(failure.getSQLState());
  }

  /** {@link Reason#COMMIT_OUTCOME_UNKNOWN}. */
  public Reason reason() {
    return Reason.COMMIT_OUTCOME_UNKNOWN;
  }
}

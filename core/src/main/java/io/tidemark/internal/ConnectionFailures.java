package io.tidemark.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/** Which SQL failures mean the connection, not the statement, failed. */
public final class ConnectionFailures {

  private ConnectionFailures() {}

  /** Whether {@code e} reports a lost or refused connection (SQLState class 08, or its types). */
  public static boolean isConnectionFailure(SQLException e) {
    return e instanceof SQLNonTransientConnectionException
        || e instanceof SQLTransientConnectionException
        || (e.getSQLState() != null && e.getSQLState().startsWith("08"));
  }

  /** Whether {@code e} or one of its causes is a connection failure. */
  public static boolean causedByConnectionFailure(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && isConnectionFailure(sql)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Aborts {@code connection} when {@code e} is a connection failure, so that its pool does not
   * hand it out again.
   */
  public static void abortIfBroken(Connection connection, SQLException e) {
    if (isConnectionFailure(e)) {
      try {
        connection.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // Already unusable; closing it in the caller's finally is all that is left to do.
      }
    }
  }
}

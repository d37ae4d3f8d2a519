package io.tidemark.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/** Which SQL failures mean the connection, not the statement, failed. */
public final class ConnectionFailures {

  private ConnectionFailures() {}

  /**
   * Whether {@code e} reports a lost or refused connection: SQLState class 08 or its types, or a
   * session the server ended while it ran ({@code 57P01} when PostgreSQL is shut down, its
   * postmaster dies or an administrator terminates the session; {@code 57P02} when it crashes).
   */
  public static boolean isConnectionFailure(SQLException e) {
    String state = e.getSQLState();
    return e instanceof SQLNonTransientConnectionException
        || e instanceof SQLTransientConnectionException
        || (state != null
            && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")));
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

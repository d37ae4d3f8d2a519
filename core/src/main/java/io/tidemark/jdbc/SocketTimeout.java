package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Bounds every socket read on a connection for a while, then restores the previous bound. The
 * server's own wait timeout ends a wait on a healthy server; this catches a server that answers
 * nothing at all (frozen, or cut off), where cancelling the statement would hang as well.
 */
final class SocketTimeout implements AutoCloseable {

  private final Connection connection;
  private final int previousMillis;

  private SocketTimeout(Connection connection, int previousMillis) {
    this.connection = connection;
    this.previousMillis = previousMillis;
  }

  static SocketTimeout limit(Connection connection, long millis) throws SQLException {
    int previous = connection.getNetworkTimeout();
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
    return new SocketTimeout(connection, previous);
  }

  /**
   * Bounds the socket reads of the next statement anew: the bound applies to each read, not to the
   * whole read path, so it is tightened to what is left before every statement.
   */
  static void tighten(Connection connection, long millis) throws SQLException {
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
  }

  /**
   * Restores the previous bound. A connection that cannot take it back is aborted rather than
   * returned to its pool with a tight bound, and the failure is not raised: the statements it
   * bounded have ended, and what they read stays good.
   */
  @Override
  public void close() {
    try {
      if (!connection.isClosed()) {
        connection.setNetworkTimeout(Runnable::run, previousMillis);
      }
    } catch (SQLException e) {
      try {
        connection.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // Already unusable; the caller's close returns it to its pool, which drops it.
      }
    }
  }
}

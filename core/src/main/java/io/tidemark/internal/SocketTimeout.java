package io.tidemark.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Bounds every socket read on a connection for a while, then restores the previous bound. The
 * server's own wait timeout ends a wait on a healthy server; this catches a server that answers
 * nothing at all (frozen, or cut off), where cancelling the statement would hang as well.
 */
public final class SocketTimeout implements AutoCloseable {

  /** How long past a deadline a socket read may still end: the server ends its own wait first. */
  public static final long SOCKET_GRACE_MILLIS = 50;

  /**
   * The least a statement the read path chose to run is given: a bound of a millisecond cuts the
   * answer of any server on a busy machine, turning a read whose budget just ran out into a replica
   * error.
   */
  private static final long STATEMENT_FLOOR_MILLIS = 20;

  private final Connection connection;
  private final int previousMillis;

  private SocketTimeout(Connection connection, int previousMillis) {
    this.connection = connection;
    this.previousMillis = previousMillis;
  }

  public static SocketTimeout limit(Connection connection, long millis) throws SQLException {
    int previous = connection.getNetworkTimeout();
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
    return new SocketTimeout(connection, previous);
  }

  /**
   * Bounds the socket reads of the next statement anew: the bound applies to each read, not to the
   * whole read path, so it is tightened to what is left before every statement.
   */
  public static void tighten(Connection connection, long millis) throws SQLException {
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

  /**
   * What is left of a deadline ({@code remaining}) in milliseconds, at least a {@linkplain
   * #STATEMENT_FLOOR_MILLIS floor} (a network timeout of 0 is none).
   */
  public static long millisLeft(Duration remaining) {
    return Math.max(STATEMENT_FLOOR_MILLIS, remaining.toMillis());
  }

  /**
   * What is left of a deadline ({@code remaining}) plus a grace for socket reads: a server that
   * answers nothing must not hold the read past its deadline, yet a wait the server ends on time
   * must not be cut by the socket first.
   */
  public static long socketMillis(Duration remaining) {
    return Math.max(0, remaining.toMillis()) + SOCKET_GRACE_MILLIS;
  }
}

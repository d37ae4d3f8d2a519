package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What Tidemark remembers about one physical connection across pool check-outs: whether its commits
 * report GTIDs by session tracking, who receives them, and the server it is connected to. The state
 * belongs to the connection, not to any data source wrapping its pool, so it is kept in one
 * registry, weakly keyed by the driver's connection object and never referring back to it. With
 * drivers other than Connector/J the physical connection cannot be told apart from its pool
 * wrapper, so nothing is remembered and each check-out starts afresh.
 */
final class PhysicalConnection {

  private static final Map<Object, PhysicalConnection> KNOWN =
      Collections.synchronizedMap(new WeakHashMap<>());

  private volatile @Nullable Server server;
  private volatile @Nullable GtidSet executedWhenSeen;
  private volatile boolean tracksGtids;
  private volatile @Nullable Consumer<String> gtidSink;

  /** Keeps the listener registered with the driver reachable; the driver holds it weakly. */
  private @Nullable Object driverListener;

  private PhysicalConnection() {}

  static PhysicalConnection of(Connection connection) throws SQLException {
    DriverSession driver = DriverSession.of(connection);
    if (driver == null) {
      return new PhysicalConnection();
    }
    return KNOWN.computeIfAbsent(driver.physicalConnection(), key -> new PhysicalConnection());
  }

  /**
   * Turns on {@code session_track_gtids = OWN_GTID} once for this connection when the driver tracks
   * session state, routing every reported GTID set to the current sink; returns whether commits on
   * this connection report their GTIDs.
   */
  synchronized boolean enableGtidTracking(Connection connection) throws SQLException {
    DriverSession driver = DriverSession.of(connection);
    if (tracksGtids || driver == null || !driver.tracksSessionState()) {
      return tracksGtids;
    }
    try (Statement s = connection.createStatement()) {
      s.execute("SET SESSION session_track_gtids = OWN_GTID");
    } catch (SQLException e) {
      return false;
    }
    driverListener = driver.onTrackedGtids(this::deliver);
    tracksGtids = true;
    return true;
  }

  /** Sets {@code session_track_gtids} again, best effort: a failure leaves the query fallback. */
  void renewGtidTracking(Connection connection) {
    try (Statement s = connection.createStatement()) {
      s.execute("SET SESSION session_track_gtids = OWN_GTID");
    } catch (SQLException e) {
      tracksGtids = false;
    }
  }

  private void deliver(String gtids) {
    Consumer<String> sink = gtidSink;
    if (sink != null) {
      sink.accept(gtids);
    }
  }

  boolean tracksGtids() {
    return tracksGtids;
  }

  /**
   * Routes reported GTID sets to {@code sink} (the session that has the connection checked out).
   */
  void routeGtidsTo(@Nullable Consumer<String> sink) {
    gtidSink = sink;
  }

  /**
   * The server this connection reaches, asked once per physical connection: its {@code server_uuid}
   * and when it started, to the second ({@link Server#UNKNOWN_START} when {@code
   * performance_schema} cannot tell); with it, what it had executed then, for {@link
   * #takeExecutedWhenSeen}.
   */
  Server server(Connection connection) throws SQLException {
    Server known = server;
    if (known == null) {
      String seen;
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery(SERVER)) {
        seen = rs.next() ? rs.getString(1) : null;
      }
      if (seen == null) {
        try (Statement s = connection.createStatement();
            ResultSet rs = s.executeQuery(SERVER_WITHOUT_START)) {
          rs.next();
          seen = rs.getString(1);
        }
      }
      int first = seen.indexOf(' ');
      int second = seen.indexOf(' ', first + 1);
      known =
          new Server(seen.substring(0, first), Long.parseLong(seen.substring(first + 1, second)));
      executedWhenSeen = GtidSet.parse(seen.substring(second + 1));
      server = known;
    }
    return known;
  }

  /**
   * What the server had executed when this connection first asked who it is, once: evidence of what
   * it has now, which may be less than was known of it (a restore from a snapshot); {@code null}
   * after the first call.
   */
  @Nullable GtidSet takeExecutedWhenSeen() {
    GtidSet seen = executedWhenSeen;
    executedWhenSeen = null;
    return seen;
  }

  static final String SERVER =
      "SELECT CONCAT(@@GLOBAL.server_uuid, ' ', UNIX_TIMESTAMP() - CAST(VARIABLE_VALUE AS SIGNED),"
          + " ' ', @@GLOBAL.gtid_executed) FROM performance_schema.global_status"
          + " WHERE VARIABLE_NAME = 'Uptime'";
  private static final String SERVER_WITHOUT_START =
      "SELECT CONCAT(@@GLOBAL.server_uuid, ' "
          + Server.UNKNOWN_START
          + " ', @@GLOBAL.gtid_executed)";

  /**
   * A server by {@code server_uuid} and start time: a server restored from a snapshot, re-cloned or
   * restarted keeps its UUID and starts anew.
   */
  record Server(String uuid, long startedAt) {

    static final long UNKNOWN_START = -1;

    /**
     * Whether both are the same run of one server; start times computed a moment apart may differ
     * by a second, and an unknown start is never the same run.
     */
    boolean sameRunAs(Server other) {
      return uuid.equals(other.uuid)
          && startedAt != UNKNOWN_START
          && other.startedAt != UNKNOWN_START
          && Math.abs(startedAt - other.startedAt) <= 1;
    }
  }

  /**
   * Ends whatever transaction the connection holds, so the next statement opens a fresh read view:
   * an open REPEATABLE READ snapshot would otherwise survive the wait and show old rows. With
   * Connector/J the server's status flags tell whether a transaction is open, at no cost.
   */
  static void endOpenTransaction(Connection connection) throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.rollback();
      connection.setAutoCommit(true);
    }
    DriverSession driver = DriverSession.of(connection);
    if (driver == null || driver.inTransactionOnServer()) {
      try (Statement s = connection.createStatement()) {
        s.execute("ROLLBACK");
      }
    }
  }
}

package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.DriverSession;
import io.tidemark.internal.Failures;
import java.sql.Connection;
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
 * drivers other than Connector/J that object is what the pool's connection unwraps to as a {@code
 * Connection} (HikariCP hands out the driver's); a pool whose wrapper unwraps to itself makes each
 * check-out start afresh.
 */
final class PhysicalConnection {

  /** Striped by identity, so that concurrent reads rarely meet on one lock. */
  private static final Map<Object, PhysicalConnection>[] KNOWN = stripes(16);

  private volatile @Nullable String serverUuid;
  private volatile @Nullable GtidSet executedWhenSeen;
  private volatile boolean tracksGtids;
  private volatile @Nullable Consumer<String> gtidSink;
  private volatile boolean multiStatements;
  private volatile boolean readOnlyKept;

  /** Keeps the listener registered with the driver reachable; the driver holds it weakly. */
  private @Nullable Object driverListener;

  private PhysicalConnection() {}

  static PhysicalConnection of(Connection connection) throws SQLException {
    return of(connection, DriverSession.of(connection));
  }

  static PhysicalConnection of(Connection connection, @Nullable DriverSession driver)
      throws SQLException {
    Object key = driver != null ? driver.physicalConnection() : physical(connection);
    return KNOWN[System.identityHashCode(key) & (KNOWN.length - 1)].computeIfAbsent(
        key, k -> new PhysicalConnection());
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type cannot be made
  private static Map<Object, PhysicalConnection>[] stripes(int count) {
    Map<Object, PhysicalConnection>[] stripes = new Map[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = Collections.synchronizedMap(new WeakHashMap<>());
    }
    return stripes;
  }

  /**
   * Turns on {@code session_track_gtids = OWN_GTID} once for this connection when the driver tracks
   * session state, routing every reported GTID set to the current sink; returns whether commits on
   * this connection report their GTIDs.
   *
   * @throws SQLException when the connection failed
   */
  synchronized boolean enableGtidTracking(Connection connection) throws SQLException {
    DriverSession driver = DriverSession.of(connection);
    // MariaDB reports no GTID sets: Connector/J would not hear its last_gtid.
    if (tracksGtids || driver == null || !driver.tracksSessionState() || driver.mariaDb()) {
      return tracksGtids;
    }
    try (Statement s = connection.createStatement()) {
      s.execute("SET SESSION session_track_gtids = OWN_GTID");
    } catch (SQLException e) {
      // A refused setting leaves the query fallback; a lost connection is the caller's failure,
      // which its pool (having closed the connection) would otherwise report without a cause.
      if (Failures.isConnectionFailure(e)) {
        throw e;
      }
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
   * The server's {@code server_uuid}, asked once per physical connection; with it, what the server
   * had executed then, for {@link #takeExecutedWhenSeen}.
   */
  String serverUuid(Connection connection) throws SQLException {
    String uuid = serverUuid;
    if (uuid == null) {
      Dialect.Server server = Dialect.of(connection).server(connection);
      uuid = server.id();
      executedWhenSeen = server.executed();
      serverUuid = uuid;
    }
    return uuid;
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

  /**
   * Ends whatever transaction the connection holds, so the next statement opens a fresh read view:
   * an open REPEATABLE READ snapshot would otherwise survive the wait and show old rows. Whether
   * one is open is the driver's to tell at no cost ({@link Dialect#transactionOpen}), where it
   * knows.
   */
  static void endOpenTransaction(
      Connection connection, Dialect dialect, @Nullable DriverSession driver) throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.rollback();
      connection.setAutoCommit(true);
    }
    // Unknown, a ROLLBACK is sent: without it a transaction begun as SQL text (BEGIN) may be open.
    if (!Boolean.FALSE.equals(dialect.transactionOpen(connection, driver))) {
      try (Statement s = connection.createStatement()) {
        s.execute("ROLLBACK");
      }
    }
  }

  /**
   * Makes the physical connection read-only for a replica read and leaves it so when it goes back
   * to its pool: setting it and undoing it on every read would cost two round trips, and the next
   * read wants it read-only again. A connection taken for writes is made writable again by {@link
   * #writable}. With a driver whose read-only flag the dialect tells the session itself (MariaDB
   * Connector/J), the session is told once, and told again it may write when {@link #writable}
   * takes the connection for writes (a replica's pool after a failover promoted it). Returns {@code
   * false}, changing nothing, with other drivers.
   */
  boolean keepReadOnly(Connection connection, Dialect dialect, @Nullable DriverSession driver)
      throws SQLException {
    if (driver != null) {
      if (!driver.readOnly()) {
        driver.readOnly(true);
      }
      return true;
    }
    if (!dialect.readOnlySentAsStatement(connection)) {
      return false;
    }
    if (!readOnlyKept) {
      dialect.readOnly(connection, true);
      readOnlyKept = true;
    }
    return true;
  }

  /**
   * Lets the server run the statements of one text on this connection, for a read whose wait
   * travels with its query, and leaves it so for the next read, as {@link #keepReadOnly} does;
   * returns {@code false}, changing nothing, with drivers other than Connector/J.
   */
  boolean keepMultiStatements(@Nullable DriverSession driver) throws SQLException {
    if (driver == null) {
      return false;
    }
    if (!multiStatements && !driver.allowsMultiQueries()) {
      driver.multiStatements(true);
      multiStatements = true;
    }
    return true;
  }

  /**
   * Forgets that this session runs several statements of one text: it took a text of several for
   * one, so the next read lets it again.
   */
  void multiStatementsLost() {
    multiStatements = false;
  }

  /**
   * Whether Tidemark let this session run several statements of one text, which the driver was not
   * configured to send: a text of several that a read sends is then refused on the replica.
   */
  boolean multiStatementsLetByTidemark() {
    return multiStatements;
  }

  /**
   * Makes a connection taken for writes writable, if a read left it read-only, and one statement
   * per text again, if a read let it run several: a write runs as the application configured its
   * driver, so a text an injection extended is refused as it would be without Tidemark. A replica's
   * pool takes writes once a failover promoted the replica.
   */
  static void writable(Connection connection, @Nullable DriverSession driver) throws SQLException {
    if (driver == null) {
      PhysicalConnection known = known(physical(connection));
      if (known != null && known.readOnlyKept) {
        Dialect.of(connection).readOnly(connection, false);
        known.readOnlyKept = false;
      }
      return;
    }
    if (driver.readOnly()) {
      driver.readOnly(false);
    }
    PhysicalConnection known = known(driver.physicalConnection());
    if (known != null && known.multiStatements) {
      driver.multiStatements(false);
      known.multiStatements = false;
    }
  }

  private static @Nullable PhysicalConnection known(Object key) {
    return KNOWN[System.identityHashCode(key) & (KNOWN.length - 1)].get(key);
  }

  /** What another driver's connection unwraps to, the key its state is kept by. */
  private static Object physical(Connection connection) throws SQLException {
    return connection.isWrapperFor(Connection.class)
        ? connection.unwrap(Connection.class)
        : connection;
  }
}

package io.tidemark.dialect;

import io.tidemark.GtidSet;
import io.tidemark.TidemarkException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * MySQL's {@link Dialect}: a server is its {@code server_uuid}, what it has executed its {@code
 * gtid_executed}; a connection waits with the server's own {@code WAIT_FOR_EXECUTED_GTID_SET},
 * never with a timeout of 0 or none, which both mean forever.
 *
 * <p>The wait's own timeout is given in whole seconds, at least the budget: some servers (MySQL
 * 8.0.15 among them) truncate a fractional timeout, so that 0.3 s times out at once. The statement
 * timer ({@code MAX_EXECUTION_TIME}) ends the wait at the budget's millisecond instead, on every
 * server, with error 3024 and the connection left as it was: one statement, no polling, no client
 * timer. The wait's row also holds {@code gtid_executed} as the server had it then, for the reads
 * waiting behind it on the same server.
 */
final class MySqlDialect extends MySqlProtocolDialect {

  static final MySqlDialect INSTANCE = new MySqlDialect();

  /** {@code ER_QUERY_TIMEOUT}: the statement timer ended the statement. */
  static final int STATEMENT_TIMER_EXPIRED = 3024;

  /** The server's {@code super_read_only} refused a write. */
  private static final int SUPER_READ_ONLY = 1836;

  private static final String EXECUTED = "SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed)";
  private static final String MISSING = "SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)";
  static final String RECEIVED =
      "SELECT received_transaction_set FROM performance_schema.replication_connection_status";
  private static final String SERVER =
      "SELECT CONCAT(@@GLOBAL.server_uuid, ' ', @@GLOBAL.gtid_executed)";

  private MySqlDialect() {
    super(STATEMENT_TIMER_EXPIRED);
  }

  @Override
  public Server server(Connection connection) throws SQLException {
    String seen;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(SERVER)) {
      rs.next();
      seen = rs.getString(1);
    }
    int space = seen.indexOf(' ');
    return new Server(seen.substring(0, space), GtidSet.parse(seen.substring(space + 1)));
  }

  @Override
  public GtidSet executed(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_executed")) {
      rs.next();
      return GtidSet.parse(rs.getString(1));
    }
  }

  @Override
  public GtidSet committed(Connection connection, boolean ownSynchronousCommit)
      throws SQLException {
    return executed(connection);
  }

  @Override
  String waitPositions(GtidSet required) {
    return required.toString();
  }

  /**
   * Whether the result of a {@link #waitStatement} says the set was executed (0), telling {@code
   * seen}, when given, what the server had executed when it answered.
   */
  @Override
  boolean reached(ResultSet waitResult, GtidSet required, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    if (!waitResult.next()) {
      return false;
    }
    boolean reached = waitResult.getInt(1) == 0 && !waitResult.wasNull();
    if (seen != null) {
      String executed = waitResult.getString(2);
      if (executed != null) {
        seen.accept(GtidSet.parse(executed));
      }
    }
    return reached;
  }

  /**
   * The wait of {@code millis} (at least 1) for the GTID set {@code positions} (a parameter or a
   * literal): its own timeout in whole seconds, at least as long, the statement timer ending it at
   * the millisecond; with {@code executed}, what the server had executed when it returned as well
   * (about 15 µs more on loopback, for the server's lock and the set's text).
   */
  @Override
  String waitStatement(String positions, long millis, boolean executed, boolean queryBehind) {
    return "SELECT /*+ MAX_EXECUTION_TIME("
        + millis
        + ") */ WAIT_FOR_EXECUTED_GTID_SET("
        + positions
        + ", "
        + (millis + 999) / 1000
        + ")"
        + (executed ? ", @@GLOBAL.gtid_executed" : "");
  }

  @Override
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(EXECUTED)) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 1;
      }
    }
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(MISSING)) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return GtidSet.parse(rs.getString(1));
      }
    } catch (TidemarkException e) {
      return null;
    }
  }

  /** {@code read_only} and {@code super_read_only}: the server's, never the session's. */
  @Override
  public boolean refusedAsReadOnly(SQLException failure, Connection connection) {
    return failure.getErrorCode() == READ_ONLY || failure.getErrorCode() == SUPER_READ_ONLY;
  }

  @Override
  public NodeFacts probe(Connection connection, int readMillis) throws SQLException {
    return MySqlProbe.probe(connection);
  }

  @Override
  public @Nullable ProbeGrants probeGrants(Connection connection, SQLException failure)
      throws SQLException {
    return MySqlProbe.grants(connection, failure);
  }

  /** Stops the statement session {@code id} runs, sent on another connection to its server. */
  static String cancel(long id) {
    return "KILL QUERY " + id;
  }

  /** The union over every replication channel: a multi-source replica has several. */
  @Override
  public GtidSet received(Connection connection) throws SQLException {
    GtidSet received = GtidSet.EMPTY;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(RECEIVED)) {
      while (rs.next()) {
        received = received.union(GtidSet.parse(rs.getString(1)));
      }
    }
    return received;
  }
}

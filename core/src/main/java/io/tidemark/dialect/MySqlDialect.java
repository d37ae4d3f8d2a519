package io.tidemark.dialect;

import io.tidemark.GtidSet;
import io.tidemark.TidemarkException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
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
final class MySqlDialect implements Dialect {

  static final MySqlDialect INSTANCE = new MySqlDialect();

  /** {@code ER_QUERY_TIMEOUT}: the statement timer ended the statement. */
  static final int STATEMENT_TIMER_EXPIRED = 3024;

  private static final int PARSE_ERROR = 1064;

  /** The server's {@code read_only} refused a write. */
  private static final int READ_ONLY = 1290;

  /** The server's {@code super_read_only} refused a write. */
  private static final int SUPER_READ_ONLY = 1836;

  /** What a GTID set's text holds: nothing that could end a quoted literal. */
  private static final Pattern LITERAL = Pattern.compile("[0-9A-Za-z_:,\\-\\s]+");

  private static final String EXECUTED = "SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed)";
  private static final String MISSING = "SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)";
  static final String RECEIVED =
      "SELECT received_transaction_set FROM performance_schema.replication_connection_status";
  private static final String SERVER =
      "SELECT CONCAT(@@GLOBAL.server_uuid, ' ', @@GLOBAL.gtid_executed)";

  private MySqlDialect() {}

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
  public boolean await(
      Connection connection, GtidSet required, long budgetNanos, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos);
    if (millis <= 0) {
      return hasExecuted(connection, required);
    }
    try (PreparedStatement ps =
        connection.prepareStatement(waitStatement("?", millis, seen != null))) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        return reached(rs, seen);
      }
    } catch (SQLException e) {
      if (waitTimedOut(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Each statement of a text runs in autocommit as a transaction of its own; in a transaction, the
   * wait reads no table, and InnoDB takes a transaction's read view at its first read of one. The
   * server runs no statement after one that failed, so a wait its timer ended sends back no rows.
   * Not one statement with the wait in it: the server may read the rows before it evaluates the
   * wait.
   */
  @Override
  public @Nullable String waitThen(
      GtidSet required, long millis, String query, boolean tellExecuted) {
    String positions = required.toString();
    if (!LITERAL.matcher(positions).matches() || query.indexOf(';') >= 0) {
      return null;
    }
    return waitStatement("'" + positions + "'", millis, tellExecuted) + "; " + query;
  }

  @Override
  public boolean waitReturned(
      Statement statement, GtidSet required, @Nullable Consumer<GtidSet> seen) throws SQLException {
    try (ResultSet wait = statement.getResultSet()) {
      return wait != null && reached(wait, seen);
    }
  }

  @Override
  public WaitSight waitSight(Connection connection) {
    return WaitSight.WHEN_RETURNED;
  }

  /** {@code ER_PARSE_ERROR}: the statements' separator read as part of one. */
  @Override
  public boolean textTakenAsOne(SQLException failure) {
    return failure.getErrorCode() == PARSE_ERROR;
  }

  @Override
  public boolean waitTimedOut(SQLException failure) {
    return failure.getErrorCode() == STATEMENT_TIMER_EXPIRED;
  }

  /**
   * Whether the result of a {@link #waitStatement} says the set was executed (0), telling {@code
   * seen}, when given, what the server had executed when it answered.
   */
  private static boolean reached(ResultSet waitResult, @Nullable Consumer<GtidSet> seen)
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
  private static String waitStatement(String positions, long millis, boolean executed) {
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
  // Connector/J sends SET SESSION TRANSACTION READ ONLY, which autocommit statements obey.
  public boolean readOnlyNeedsTransaction() {
    return false;
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

  @Override
  public @Nullable Boolean transactionOpen(Connection connection, @Nullable DriverSession driver) {
    return driver == null ? null : driver.inTransactionOnServer();
  }

  /** {@code read_only} and {@code super_read_only}: the server's, never the session's. */
  @Override
  public boolean refusedAsReadOnly(SQLException failure, Connection connection) {
    return failure.getErrorCode() == READ_ONLY || failure.getErrorCode() == SUPER_READ_ONLY;
  }

  @Override
  public String probeUrl(String jdbcUrl, Duration connectTimeout, Duration readTimeout) {
    return jdbcUrl
        + (jdbcUrl.contains("?") ? "&" : "?")
        + "connectTimeout="
        + connectTimeout.toMillis()
        + "&socketTimeout="
        + readTimeout.toMillis();
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

  @Override
  public boolean credentialsRefused(SQLException failure) {
    return failure.getErrorCode() == MySqlProbe.ACCESS_DENIED;
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

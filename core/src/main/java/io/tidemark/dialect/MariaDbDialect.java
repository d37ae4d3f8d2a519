package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * MariaDB's {@link Dialect}, through MariaDB Connector/J or MySQL Connector/J: a server is its
 * {@code server_id}, what it has executed its {@code gtid_current_pos}, per domain ({@link
 * MariaDbPositions}), and a commit's position the session's {@code last_gtid}. A connection waits
 * with the server's own {@code MASTER_GTID_WAIT}.
 *
 * <p>Which positions tell what a new read sees: a replica counts a transaction it applied in {@code
 * gtid_slave_pos} only once the transaction committed, and that is what {@code MASTER_GTID_WAIT}
 * watches; {@code gtid_binlog_pos} counts a transaction once it is in the binary log, before it
 * commits. {@code gtid_current_pos} takes the binary log's positions only for the server's own
 * writes and the applied ones for all others: on a replica what it shows, on a source what it
 * wrote, which a client has seen commit before its token names it.
 *
 * <p>The wait's own timeout takes fractions of a second; sent with a query behind it in one text,
 * the statement timer ({@code SET STATEMENT max_statement_time}) ends it at the same time with an
 * error, so that the query does not run after a wait that timed out.
 */
final class MariaDbDialect extends MySqlProtocolDialect {

  static final MariaDbDialect INSTANCE = new MariaDbDialect();

  /** {@code ER_STATEMENT_TIMEOUT}: the statement timer ended the statement. */
  private static final int STATEMENT_TIMER_EXPIRED = 1969;

  private static final String POSITIONS = "@@GLOBAL.gtid_binlog_state, @@GLOBAL.gtid_current_pos";

  private MariaDbDialect() {
    super(STATEMENT_TIMER_EXPIRED);
  }

  @Override
  public Server server(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@GLOBAL.server_id, " + POSITIONS)) {
      rs.next();
      return new Server(MariaDbPositions.server(rs.getLong(1)).toString(), positions(rs, 2));
    }
  }

  @Override
  public GtidSet executed(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + POSITIONS)) {
      rs.next();
      return positions(rs, 1);
    }
  }

  /** What the server executed, from {@link #POSITIONS} in columns {@code column} and the next. */
  static GtidSet positions(ResultSet rs, int column) throws SQLException {
    return MariaDbPositions.executed(text(rs, column), text(rs, column + 1));
  }

  private static String text(ResultSet rs, int column) throws SQLException {
    String text = rs.getString(column);
    return text == null ? "" : text;
  }

  /**
   * The session's last transaction written to the binary log: the commit that just returned, or an
   * earlier one of the same session when it wrote nothing. Only its own, not others' that are in
   * the binary log and not yet committed.
   */
  @Override
  public GtidSet committed(Connection connection, boolean ownSynchronousCommit)
      throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@SESSION.last_gtid")) {
      rs.next();
      return MariaDbPositions.parse(text(rs, 1));
    }
  }

  @Override
  @Nullable String waitPositions(GtidSet required) {
    return MariaDbPositions.waitList(required);
  }

  /**
   * Whether the wait in {@code waitResult} saw {@code required} executed: it compares sequence
   * numbers per domain, so it returns for another server's transaction of the same number as well
   * (a write a failover lost, numbered again by the new source); the server's own positions, read
   * after it returned, tell whose they are.
   */
  @Override
  boolean reached(ResultSet waitResult, GtidSet required, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    if (!waitResult.next()) {
      return false;
    }
    boolean returned = waitResult.getInt(1) == 0 && !waitResult.wasNull();
    GtidSet executed = positions(waitResult, 2);
    if (seen != null) {
      seen.accept(executed);
    }
    return returned && executed.containsAll(required);
  }

  /**
   * The wait of {@code millis} (at least 1) for the GTID list {@code positions} (a parameter or a
   * literal), its own timeout the budget, and what the server executed when it returned, which
   * {@link #reached} needs whoever asks. With a query behind it, the statement timer ends it at the
   * same time with an error, so that the query does not run; alone, its timeout returns -1, which
   * MariaDB Connector/J does not log as it logs every error.
   */
  @Override
  String waitStatement(String positions, long millis, boolean tellExecuted, boolean queryBehind) {
    String seconds = BigDecimal.valueOf(millis, 3).toPlainString();
    String waitAndPositions =
        "SELECT MASTER_GTID_WAIT(" + positions + ", " + seconds + "), " + POSITIONS;
    return queryBehind
        ? "SET STATEMENT max_statement_time=" + seconds + " FOR " + waitAndPositions
        : waitAndPositions;
  }

  /**
   * MariaDB Connector/J keeps its read-only flag to itself (it routes by it between servers of a
   * failover URL), so the session is told here; MySQL Connector/J tells it itself.
   */
  @Override
  public void readOnly(Connection connection, boolean readOnly) throws SQLException {
    connection.setReadOnly(readOnly);
    if (readOnlySentAsStatement(connection)) {
      try (Statement s = connection.createStatement()) {
        s.execute("SET SESSION TRANSACTION " + (readOnly ? "READ ONLY" : "READ WRITE"));
      }
    }
  }

  @Override
  public boolean readOnlySentAsStatement(Connection connection) throws SQLException {
    return DriverSession.of(connection) == null;
  }

  /**
   * MariaDB Connector/J's {@code isValid} sets its own socket timeout, in whole seconds, over any
   * tighter one: the server is pinged with a statement of no effect under the bound instead.
   */
  @Override
  public boolean validWithin(Connection connection, long millis) throws SQLException {
    int previous = connection.getNetworkTimeout();
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
    try (Statement s = connection.createStatement()) {
      s.execute("DO 1");
      return true;
    } catch (SQLException e) {
      return false;
    } finally {
      if (!connection.isClosed()) {
        connection.setNetworkTimeout(Runnable::run, previous);
      }
    }
  }

  /** As Connector/J, MariaDB Connector/J keeps the server's last status flags: no round trip. */
  @Override
  public @Nullable Boolean transactionOpen(Connection connection, @Nullable DriverSession driver)
      throws SQLException {
    if (driver != null) {
      return driver.inTransactionOnServer();
    }
    return MariaDbConnectorJ.inTransaction(connection);
  }

  @Override
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    return executed(connection).containsAll(required);
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    return required.subtract(executed(connection));
  }

  /** {@code read_only}: the server's, never the session's. */
  @Override
  public boolean refusedAsReadOnly(SQLException failure, Connection connection) {
    return failure.getErrorCode() == READ_ONLY;
  }

  @Override
  public NodeFacts probe(Connection connection, int readMillis) throws SQLException {
    return MariaDbProbe.probe(connection);
  }

  @Override
  public @Nullable ProbeGrants probeGrants(Connection connection, SQLException failure)
      throws SQLException {
    return MariaDbProbe.grants(connection, failure);
  }

  /**
   * What each replication connection received ({@code Gtid_IO_Pos}), when the user may read the
   * replication state; else nothing, so that writes it received and has not applied count as lost.
   */
  @Override
  public GtidSet received(Connection connection) throws SQLException {
    return MariaDbProbe.received(connection);
  }
}

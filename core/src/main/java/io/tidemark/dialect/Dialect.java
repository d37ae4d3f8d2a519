package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What differs between the databases Tidemark reads: how a server tells who it is and what it has
 * executed, a commit's position, how a connection waits until its server has executed a position,
 * what a replica refuses, a write refused as read-only, the node probe, the cancel of a running
 * statement and which JDBC URLs are the database's. Everything else — deadlines, policies, routing,
 * tokens, scopes, caches — is the same for all of them. One implementation per database, in this
 * package.
 *
 * <p>A position always takes the form of a {@link GtidSet}: MySQL's own GTIDs, for MariaDB one
 * origin per replication domain whose counter is the sequence number ({@link MariaDbPositions}), or
 * for PostgreSQL one origin per cluster and timeline whose counter is the WAL position ({@link
 * WalPosition}), so that merging tokens and checking that a server contains one mean the same on
 * all.
 */
public sealed interface Dialect permits MySqlProtocolDialect, PostgresDialect {

  /** Who the server is, and what it had executed when asked. */
  record Server(String id, GtidSet executed) {}

  /** Who the server behind {@code connection} is and what it has executed: one round trip. */
  Server server(Connection connection) throws SQLException;

  /** What the server has executed now. */
  GtidSet executed(Connection connection) throws SQLException;

  /**
   * On a source, right after a commit on the same connection, a position that contains that commit;
   * {@code ownSynchronousCommit} says the transaction may have set {@code synchronous_commit} for
   * itself (PostgreSQL).
   */
  GtidSet committed(Connection connection, boolean ownSynchronousCommit) throws SQLException;

  /**
   * Returns whether the server executed {@code required} before {@code budgetNanos} ran out. A
   * budget under one millisecond sends no wait, only a non-blocking check.
   */
  default boolean await(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    return await(connection, required, budgetNanos, null);
  }

  /**
   * As {@link #await(Connection, GtidSet, long)}, telling {@code seen}, unless {@code null}, what
   * the server was seen to have executed, when the wait reads it ({@link #waitSight}).
   */
  boolean await(
      Connection connection, GtidSet required, long budgetNanos, @Nullable Consumer<GtidSet> seen)
      throws SQLException;

  /** What a wait sees of what the server has executed, beyond whether it has the awaited set. */
  enum WaitSight {
    /** Nothing more. */
    OWN_POSITION,
    /** Everything it had executed when the wait returned. */
    WHEN_RETURNED,
    /** Everything it has executed, at each look while the wait goes on. */
    AS_IT_GOES
  }

  /**
   * What a wait on {@code connection}'s server sees, and so can tell other reads waiting on the
   * same server of their positions ({@code seen} of {@link #await(Connection, GtidSet, long,
   * Consumer)}).
   */
  default WaitSight waitSight(Connection connection) throws SQLException {
    return WaitSight.OWN_POSITION;
  }

  /**
   * The wait for {@code required}, at most {@code millis} (at least 1), and {@code query} as one
   * text the server runs in one round trip, the query in a read view taken after the wait returned
   * and only when it did; {@code null} where they cannot be sent so. The session must let the
   * server run several statements of one text. With {@code tellExecuted}, the wait also reads what
   * the server has executed when it returns ({@link #waitReturned}), which costs it a little: only
   * for other reads waiting on the same server.
   */
  default @Nullable String waitThen(
      GtidSet required, long millis, String query, boolean tellExecuted) {
    return null;
  }

  /**
   * Whether the wait a {@link #waitThen} text opens with returned in time with {@code required}
   * executed: {@code statement} has just executed that text, and its current result is the wait's;
   * {@code seen}, given when the text was made to tell it, is told what the server had executed
   * then, as {@link #await(Connection, GtidSet, long, Consumer)} tells it.
   */
  default boolean waitReturned(
      Statement statement, GtidSet required, @Nullable Consumer<GtidSet> seen) throws SQLException {
    throw new SQLFeatureNotSupportedException("no wait is sent with a query here");
  }

  /**
   * Whether {@code failure}, thrown by a {@link #waitThen} text, says the session took the text for
   * one statement: it no longer runs several (the driver stopped it after a batch of its own, or
   * reconnected).
   */
  default boolean textTakenAsOne(SQLException failure) {
    return false;
  }

  /** Whether {@code failure}, thrown where a wait ran, says that its time ran out. */
  default boolean waitTimedOut(SQLException failure) {
    return false;
  }

  /**
   * Whether {@link Connection#setReadOnly} refuses writes only inside a transaction, so that a
   * read-only statement in autocommit must run in one.
   */
  boolean readOnlyNeedsTransaction();

  /**
   * Why the replica refused or cancelled a read that the source can serve, told by what the read's
   * query threw there; {@code null} when {@code failure} is the read's own, which the source would
   * throw too. Only the failure decides, not the connection: it may be unusable by now (HikariCP
   * drops a connection on some of these).
   *
   * <p>For every database: the server rolled the read's transaction back (SQLSTATE class {@code
   * 40}), as a serialization failure or a deadlock's victim. The read ran nothing but reads, so
   * running it again elsewhere is the remedy that class means. On a hot standby that is a conflict
   * with recovery: {@code 40001}, or {@code 40P01} when replay would deadlock with the read; told
   * by the SQLSTATE, whatever language the server's messages are in.
   */
  default @Nullable String refusedOnReplica(SQLException failure) {
    String state = failure.getSQLState();
    return state != null && state.startsWith("40")
        ? "rolled the read back (SQLSTATE " + state + ")"
        : null;
  }

  /**
   * The connection a read's query gets on a replica: {@code connection}, or a view of it that
   * refuses up front, with a {@link io.tidemark.internal.ReplicaRefusedException}, what the replica
   * cannot run and the source can.
   */
  default Connection forReplicaQuery(Connection connection) {
    return connection;
  }

  /**
   * Makes the session refuse writes, or take them again: {@link Connection#setReadOnly}, where the
   * driver tells the server.
   */
  default void readOnly(Connection connection, boolean readOnly) throws SQLException {
    connection.setReadOnly(readOnly);
  }

  /** Whether {@link #readOnly} sends a statement of its own on {@code connection}. */
  default boolean readOnlySentAsStatement(Connection connection) throws SQLException {
    return false;
  }

  /**
   * Whether the server answers on {@code connection} within {@code millis}, the socket reads
   * bounded so: the driver's {@code isValid} takes whole seconds, and PgJDBC keeps a tighter
   * network timeout that is already set. A connection that timed out is closed by the driver and
   * keeps no bound to restore.
   */
  default boolean validWithin(Connection connection, long millis) throws SQLException {
    int previous = connection.getNetworkTimeout();
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
    try {
      return connection.isValid((int) Math.min(Integer.MAX_VALUE, (millis + 999) / 1000));
    } finally {
      if (!connection.isClosed()) {
        connection.setNetworkTimeout(Runnable::run, previous);
      }
    }
  }

  /** Whether the server has executed {@code required} now: never blocks. */
  boolean hasExecuted(Connection connection, GtidSet required) throws SQLException;

  /**
   * Whether a new statement on this source, which {@link #hasExecuted has executed} {@code
   * required}, sees all of it, waiting up to {@code budgetNanos}. A MySQL source shows a
   * transaction once it counts it executed.
   */
  default boolean awaitVisible(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    return true;
  }

  /**
   * The part of {@code required} the server has not executed, or {@code null} when its answer
   * cannot be read.
   */
  @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException;

  /**
   * What the server has received from the sources it replicates from, applied or not: a replica
   * made writable while its applier still works through its relay log will apply all of it, so none
   * of it is lost. Empty where a promotion applies everything it received first (PostgreSQL).
   */
  GtidSet received(Connection connection) throws SQLException;

  /**
   * Whether the server holds an open transaction on {@code connection}, as its driver last heard
   * ({@code driver} when Connector/J's); {@code null} when that cannot be known without asking.
   */
  @Nullable Boolean transactionOpen(Connection connection, @Nullable DriverSession driver)
      throws SQLException;

  /**
   * Whether the server refused the write that threw {@code failure} on {@code connection} because
   * the server is read-only (a demoted source), not because the application made its own
   * transaction read-only.
   */
  boolean refusedAsReadOnly(SQLException failure, Connection connection);

  /** The URL a node probe connects with: {@code jdbcUrl} with its driver's timeouts set. */
  String probeUrl(String jdbcUrl, Duration connectTimeout, Duration readTimeout);

  /**
   * Reads what a node probe reports of the server behind {@code connection}, a connection of the
   * probe's own opened with {@link #probeUrl}: one round trip.
   */
  NodeFacts probe(Connection connection, int readMillis) throws SQLException;

  /**
   * When the probe's {@code failure} says its user may not read what the probe reads, the account
   * and the statements that grant it what it lacks; {@code null} for any other failure.
   */
  default @Nullable ProbeGrants probeGrants(Connection connection, SQLException failure)
      throws SQLException {
    return null;
  }

  /** Whether {@code failure}, on connecting, says the server refused the credentials. */
  boolean credentialsRefused(SQLException failure);

  /** The account a probe's user is, and the statements that grant it what the probe reads. */
  record ProbeGrants(String account, List<String> statements) {}

  /**
   * The statement that, sent on another connection to the same server, stops the one {@code
   * connection} runs; {@code null} when its session cannot be told without a round trip.
   */
  static @Nullable String cancelStatement(Connection connection) throws SQLException {
    DriverSession driver = DriverSession.of(connection);
    if (driver != null) {
      return MySqlDialect.cancel(driver.sessionId());
    }
    Long thread = MariaDbConnectorJ.threadId(connection);
    if (thread != null) {
      return MySqlDialect.cancel(thread);
    }
    Integer pid = PostgresServer.knownBackendPid(connection);
    return pid == null ? null : PostgresDialect.cancel(pid);
  }

  /**
   * The dialect of the database {@code jdbcUrl} names ({@code jdbc:mysql:}, {@code jdbc:mariadb:},
   * {@code jdbc:postgresql:}), or {@code null} for a database Tidemark does not read. A {@code
   * jdbc:mysql:} URL may name a MariaDB server too, which only the server tells ({@link #of}).
   */
  static @Nullable Dialect forUrl(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:mysql:")) {
      return MySqlDialect.INSTANCE;
    }
    if (jdbcUrl.startsWith("jdbc:mariadb:")) {
      return MariaDbDialect.INSTANCE;
    }
    return jdbcUrl.startsWith("jdbc:postgresql:") ? PostgresDialect.INSTANCE : null;
  }

  /** The dialect of the server behind {@code connection}, from its driver: no round trip. */
  static Dialect of(Connection connection) throws SQLException {
    return of(connection, DriverSession.of(connection));
  }

  /** As {@link #of(Connection)}, for a connection whose driver session is already known. */
  static Dialect of(Connection connection, @Nullable DriverSession driver) throws SQLException {
    if (driver != null) {
      return driver.mariaDb() ? MariaDbDialect.INSTANCE : MySqlDialect.INSTANCE;
    }
    DatabaseMetaData metaData = connection.getMetaData();
    String product = metaData.getDatabaseProductName();
    return switch (product) {
      case "MySQL" ->
          metaData.getDatabaseProductVersion().contains("MariaDB")
              ? MariaDbDialect.INSTANCE
              : MySqlDialect.INSTANCE;
      case "MariaDB" -> MariaDbDialect.INSTANCE;
      case "PostgreSQL" -> PostgresDialect.INSTANCE;
      default ->
          throw new SQLFeatureNotSupportedException(
              "Tidemark reads MySQL, MariaDB and PostgreSQL; this connection is to " + product);
    };
  }

  /**
   * The product and version of the server behind {@code connection}, whose dialect is {@code
   * dialect}, as its driver told it at login, "MySQL 8.0.15", "MariaDB 10.11.19" or "PostgreSQL
   * 15.18": no round trip.
   */
  static String product(Dialect dialect, Connection connection) throws SQLException {
    String version = connection.getMetaData().getDatabaseProductVersion();
    String product =
        dialect instanceof PostgresDialect
            ? "PostgreSQL"
            : dialect instanceof MariaDbDialect ? "MariaDB" : "MySQL";
    // MySQL's protocol makes MariaDB say "5.5.5-10.11.19-MariaDB-..." to old clients.
    String number = version.startsWith("5.5.5-") ? version.substring(6) : version;
    int end = 0;
    while (end < number.length()
        && (Character.isDigit(number.charAt(end)) || number.charAt(end) == '.')) {
      end++;
    }
    return product + " " + (end == 0 ? number : number.substring(0, end));
  }

  /**
   * What a node probe read of one server, in every database's terms.
   *
   * @param id the server's identity ({@code server_uuid}, or a PostgreSQL cluster and timeline)
   * @param writable whether the server takes writes
   * @param superReadOnly whether even privileged users cannot write (MySQL's {@code
   *     super_read_only})
   * @param replica whether the server replicates from another
   * @param replicating whether its replication runs: receiving and applying
   * @param replicatesFrom the identity of the source it receives from, when it tells
   * @param positionsOn whether the server keeps the positions tokens hold ({@code gtid_mode=ON})
   * @param executed what it has executed
   * @param ownWrites whether a replica can hold transactions of its own that its source lacks
   * @param applyingAge how long ago the transaction being applied now committed on the source, or
   *     {@code null} when none is
   * @param problems what the probe's user lacks on this server and what it costs; empty when
   *     nothing
   * @param grants the statements that grant what it lacks
   */
  record NodeFacts(
      String id,
      boolean writable,
      boolean superReadOnly,
      boolean replica,
      boolean replicating,
      @Nullable String replicatesFrom,
      boolean positionsOn,
      GtidSet executed,
      boolean ownWrites,
      @Nullable Duration applyingAge,
      String problems,
      List<String> grants) {}
}

package io.tidemark.dialect;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.internal.ReplicaRefusedException;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's {@link Dialect}, for a primary and its hot standbys on streaming replication: a
 * server is what {@link PostgresServer} reads, and a standby waits as {@link ReplayWait} says.
 */
final class PostgresDialect implements Dialect {

  static final PostgresDialect INSTANCE = new PostgresDialect();

  /** How long a poll of {@link #awaitVisible} pauses before the next. */
  static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private PostgresDialect() {}

  @Override
  public Server server(Connection connection) throws SQLException {
    PostgresServer server = PostgresServer.read(connection);
    return new Server(server.id(), server.executed());
  }

  @Override
  public GtidSet executed(Connection connection) throws SQLException {
    return PostgresServer.read(connection).executed();
  }

  @Override
  public GtidSet committed(Connection connection, boolean ownSynchronousCommit)
      throws SQLException {
    return PostgresServer.read(connection).committed(ownSynchronousCommit);
  }

  @Override
  // PgJDBC's default readOnlyMode=transaction sends BEGIN READ ONLY, and nothing in autocommit.
  public boolean readOnlyNeedsTransaction() {
    return true;
  }

  /** SQLSTATE {@code 25006}: a write in a read-only transaction. */
  private static final String READ_ONLY_TRANSACTION = "25006";

  /** The SQLSTATEs of refused credentials and of a role or database refused entry. */
  private static final Set<String> AUTH_FAILED = Set.of("28P01", "28000");

  /** SQLSTATE {@code 0A000}, feature not supported. */
  static final String FEATURE_NOT_SUPPORTED = "0A000";

  /** PostgreSQL's message for a serializable transaction on a hot standby, since 9.1. */
  static final String NO_SERIALIZABLE_ON_STANDBY = "cannot use serializable mode in a hot standby";

  /**
   * Besides a rolled-back transaction, a {@code SERIALIZABLE} one, which only a primary runs. Set
   * through JDBC, as Spring's transaction managers set it, Tidemark refuses it before it is sent
   * ({@link #forReplicaQuery}); set as SQL text, or by {@code default_transaction_isolation}, the
   * standby refuses it with SQLSTATE {@code 0A000} and its message for it. That SQLSTATE alone does
   * not tell: a feature a query lacks fails on the primary too. A server whose messages are not in
   * English leaves that refusal the read's own failure.
   */
  @Override
  public @Nullable String refusedOnReplica(SQLException failure) {
    String rolledBack = Dialect.super.refusedOnReplica(failure);
    if (rolledBack != null) {
      return rolledBack;
    }
    return failure instanceof ReplicaRefusedException
            || (FEATURE_NOT_SUPPORTED.equals(failure.getSQLState())
                && String.valueOf(failure.getMessage()).contains(NO_SERIALIZABLE_ON_STANDBY))
        ? "cannot run a SERIALIZABLE transaction, which only the primary runs (SQLSTATE "
            + FEATURE_NOT_SUPPORTED
            + ")"
        : null;
  }

  /** {@code connection} refusing a {@code SERIALIZABLE} transaction up front. */
  @Override
  public Connection forReplicaQuery(Connection connection) {
    return StandbyConnection.wrap(connection);
  }

  @Override
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    return PostgresServer.read(connection).executed().containsAll(required);
  }

  /**
   * A primary flushes a commit and then, under synchronous replication, waits for a synchronous
   * standby before it shows the commit to other sessions; meanwhile the commit is at or before its
   * WAL position, and asynchronous standbys may show it already. A backend waiting so commits at a
   * position past what the synchronous standbys acknowledged (the least of written, flushed and
   * replayed, whatever {@code synchronous_commit} the waiter asked for), so once they acknowledged
   * the token, or nothing waits, the commits it names show. Polled every millisecond, each poll its
   * own statement.
   */
  @Override
  public boolean awaitVisible(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    long lsn = 0;
    for (UUID origin : required.uuids()) {
      WalPosition position = WalPosition.in(required, origin);
      if (position != null) {
        lsn = Math.max(lsn, position.lsn());
      }
    }
    Deadline end = Deadline.after(Duration.ofNanos(budgetNanos), Ticker.systemTicker());
    try (PreparedStatement ps = connection.prepareStatement(SHOWN)) {
      ps.setString(1, WalPosition.text(lsn));
      while (true) {
        // Each poll is bounded by what is left: the caller's bound was set for the whole wait.
        SocketTimeout.tighten(connection, SocketTimeout.millisLeft(end.remaining()));
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getBoolean(1)) {
            return true;
          }
        }
        long left = end.remaining().toNanos();
        if (left <= 0 || Thread.currentThread().isInterrupted()) {
          return false;
        }
        LockSupport.parkNanos(Math.min(PAUSE_NANOS, left));
      }
    }
  }

  /**
   * Whether the commits up to the LSN of its parameter show on this primary: no backend waits for a
   * synchronous standby, or the synchronous standbys acknowledged that far.
   */
  static final String SHOWN =
      """
      SELECT NOT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event = 'SyncRep')
             OR coalesce((SELECT min(LEAST(write_lsn, flush_lsn, replay_lsn))
                            FROM pg_stat_replication
                           WHERE sync_state IN ('sync', 'quorum')) >= ?::pg_lsn, false)""";

  /**
   * PgJDBC's transaction state: asking would cost a round trip, and a {@code ROLLBACK} sent outside
   * a transaction logs a warning on the server at every read.
   */
  @Override
  public @Nullable Boolean transactionOpen(Connection connection, @Nullable DriverSession driver)
      throws SQLException {
    return PgJdbcTransactions.open(connection);
  }

  /**
   * A standby, or {@code default_transaction_read_only}: SQLSTATE {@code 25006}, which is also what
   * the application's own read-only transaction gets, so a connection set read-only keeps the
   * refusal as the application's.
   */
  @Override
  public boolean refusedAsReadOnly(SQLException failure, Connection connection) {
    if (!READ_ONLY_TRANSACTION.equals(failure.getSQLState())) {
      return false;
    }
    try {
      return !connection.isReadOnly();
    } catch (SQLException notKnown) {
      return false;
    }
  }

  /**
   * PgJDBC counts its connect timeout in whole seconds; the read timeout is set in milliseconds
   * once connected ({@link #probe}).
   */
  @Override
  public String probeUrl(String jdbcUrl, Duration connectTimeout, Duration readTimeout) {
    return jdbcUrl
        + (jdbcUrl.contains("?") ? "&" : "?")
        + "connectTimeout="
        + Math.max(1, (connectTimeout.toMillis() + 999) / 1000);
  }

  /**
   * A standby is a replica, replicating while its WAL receiver streams and its replay is not
   * paused; it has no transactions of its own, as a standby cannot write.
   */
  @Override
  public NodeFacts probe(Connection connection, int readMillis) throws SQLException {
    if (connection.getNetworkTimeout() != readMillis) {
      connection.setNetworkTimeout(Runnable::run, readMillis);
    }
    PostgresServer server = PostgresServer.read(connection);
    boolean standby = server.standby();
    return new NodeFacts(
        server.id(),
        !standby,
        false,
        standby,
        standby && server.receiving() && !server.replayPaused(),
        null,
        true,
        server.executed(),
        false,
        null,
        problems(server),
        server.grants());
  }

  /** What the role lacks on this node, and what it costs; empty when nothing. */
  private static String problems(PostgresServer server) {
    List<String> problems = new ArrayList<>();
    if (server.receiverHidden()) {
      problems.add(
          "its WAL receiver is hidden from this role, so the standby counts as having replayed"
              + " nothing");
    }
    if (!server.historiesReadable()) {
      problems.add(
          "this role cannot read timeline histories in database "
              + server.database()
              + ", so tokens written before a failover would be refused after it");
    }
    return String.join("; ", problems);
  }

  /** Refused credentials, and a role or database refused entry. */
  @Override
  public boolean credentialsRefused(SQLException failure) {
    return AUTH_FAILED.contains(failure.getSQLState());
  }

  /** Stops the statement backend {@code pid} runs, sent on another connection to its server. */
  static String cancel(int pid) {
    return "SELECT pg_cancel_backend(" + pid + ")";
  }

  @Override
  public GtidSet received(Connection connection) {
    return GtidSet.EMPTY;
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    return required.subtract(PostgresServer.read(connection).executed());
  }

  /**
   * Waits in one round trip when {@code required} is one position of this standby's cluster, as
   * most tokens are; else, or when the standby does not receive that position's timeline, reads the
   * standby first to tell which position on its own timeline brings all of {@code required}. Each
   * look at the standby tells {@code seen} where its replay was.
   */
  @Override
  public boolean await(
      Connection connection, GtidSet required, long budgetNanos, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    long begun = System.nanoTime();
    WalPosition single = single(required);
    if (single != null && single.systemId() == PostgresServer.systemId(connection)) {
      long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos);
      Boolean reached = millis > 0 ? ReplayWait.until(connection, single, millis, seen) : null;
      if (reached != null) {
        return reached;
      }
    }
    PostgresServer server = PostgresServer.read(connection);
    if (server.executed().containsAll(required)) {
      return true;
    }
    WalPosition target = server.reachable(required);
    long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos - (System.nanoTime() - begun));
    if (target == null || millis <= 0) {
      return false;
    }
    return Boolean.TRUE.equals(ReplayWait.until(connection, target, millis, seen));
  }

  /**
   * Every look at the standby reads its replay position: polls, one a millisecond, until PostgreSQL
   * 19, whose {@code WAIT FOR LSN} is looked after only once it returned.
   */
  @Override
  public WaitSight waitSight(Connection connection) throws SQLException {
    return PostgresServer.major(connection) >= 19 ? WaitSight.WHEN_RETURNED : WaitSight.AS_IT_GOES;
  }

  /** The one WAL position {@code required} holds, or {@code null}. */
  private static @Nullable WalPosition single(GtidSet required) {
    return required.uuidCount() == 1
        ? WalPosition.in(required, required.uuids().iterator().next())
        : null;
  }
}

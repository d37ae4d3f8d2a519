package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.postgres.PostgresServer;
import io.tidemark.postgres.WalPosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's {@link Dialect}, for a primary and its hot standbys on streaming replication: a
 * server is what {@link PostgresServer} reads.
 *
 * <p>PostgreSQL has no server function that waits for a position. The wait is a loop run by the
 * server in one statement, checking the replay position every millisecond until the budget ends: no
 * client polling, and a fresh snapshot for the read that follows, as each autocommit statement
 * takes its own.
 */
final class PostgresDialect implements Dialect {

  static final PostgresDialect INSTANCE = new PostgresDialect();

  /**
   * How long the wait checks without pausing before it checks every millisecond: PostgreSQL sleeps
   * in whole milliseconds ({@code PostgresServerFactsIT}), longer than most replays take on a
   * healthy standby.
   */
  static final int SPIN_MICROS = 1_000;

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

  @Override
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    return PostgresServer.read(connection).executed().containsAll(required);
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    return required.subtract(PostgresServer.read(connection).executed());
  }

  /**
   * Waits in one round trip when {@code required} is one position of this standby's cluster, as
   * most tokens are; else, or when the standby does not receive that position's timeline, reads the
   * standby first to tell which position on its own timeline brings all of {@code required}.
   */
  @Override
  public boolean await(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    long begun = System.nanoTime();
    WalPosition single = single(required);
    if (single != null && single.systemId() == PostgresServer.systemId(connection)) {
      long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos);
      Boolean reached = millis > 0 ? waitFor(connection, single, millis) : null;
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
    return Boolean.TRUE.equals(waitFor(connection, target, millis));
  }

  /** The one WAL position {@code required} holds, or {@code null}. */
  private static @Nullable WalPosition single(GtidSet required) {
    return required.uuidCount() == 1
        ? WalPosition.in(required, required.uuids().iterator().next())
        : null;
  }

  /**
   * Whether replay reached {@code target} within {@code millis}; {@code null} when the standby does
   * not receive {@code target}'s timeline (or is no standby), and waiting for it is useless.
   */
  private static @Nullable Boolean waitFor(Connection connection, WalPosition target, long millis)
      throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(WAIT)) {
      ps.setLong(1, millis);
      ps.setInt(2, SPIN_MICROS);
      ps.setLong(3, target.timeline());
      ps.setString(4, WalPosition.text(target.lsn()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1) ? Boolean.TRUE : rs.getBoolean(2) ? null : Boolean.FALSE;
      }
    }
  }

  /**
   * The server-side loop that waits up to its first parameter (milliseconds) for replay to reach
   * its fourth (an LSN) on the timeline of its third: a recursive query whose every step checks the
   * standby, without pausing for the first microseconds (its second parameter), then every
   * millisecond. It answers whether the position was reached, and whether the standby receives
   * another timeline or none, which ends the wait at once. One prepared statement: no parsing or
   * planning per wait, as a {@code DO} block would cost.
   */
  static final String WAIT =
      """
      WITH RECURSIVE step(reached, elsewhere, deadline, spin) AS (
        SELECT false, false,
               clock_timestamp() + make_interval(secs => ?::float8 / 1000),
               clock_timestamp() + make_interval(secs => ?::float8 / 1000000)
        UNION ALL
        SELECT r.tli IS NOT DISTINCT FROM t.tli AND pg_last_wal_replay_lsn() >= t.lsn,
               r.tli IS DISTINCT FROM t.tli,
               deadline, spin
          FROM step
               CROSS JOIN (SELECT ?::int AS tli, ?::pg_lsn AS lsn) t
               LEFT JOIN LATERAL (SELECT received_tli AS tli FROM pg_stat_wal_receiver) r ON true
         WHERE NOT reached
           AND NOT elsewhere
           AND clock_timestamp() < deadline
           AND pg_sleep(CASE WHEN clock_timestamp() < spin THEN 0 ELSE 0.001 END) IS NOT NULL
      )
      SELECT bool_or(reached), bool_or(elsewhere) FROM step""";
}

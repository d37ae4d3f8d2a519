package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.postgres.PostgresServer;
import io.tidemark.postgres.WalPosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
   * SQLSTATE of a wait whose budget ran out; class {@code TM} is neither PostgreSQL's nor SQL's.
   */
  static final String WAIT_EXPIRED = "TM001";

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
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    return PostgresServer.read(connection).executed().containsAll(required);
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    return required.subtract(PostgresServer.read(connection).executed());
  }

  @Override
  public boolean await(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    long begun = System.nanoTime();
    PostgresServer server = PostgresServer.read(connection);
    if (server.executed().containsAll(required)) {
      return true;
    }
    WalPosition target = server.reachable(required);
    long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos - (System.nanoTime() - begun));
    if (target == null || millis <= 0) {
      return false;
    }
    try (Statement s = connection.createStatement()) {
      s.execute(waitStatement(target, millis));
      return true;
    } catch (SQLException e) {
      if (WAIT_EXPIRED.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  /**
   * The server-side loop that waits up to {@code millis} for {@code target}'s replay on its
   * timeline; it raises {@link #WAIT_EXPIRED} when the time is up. Every value in it is a number
   * Tidemark formats, never text from a client.
   */
  static String waitStatement(WalPosition target, long millis) {
    return """
        DO $wait$
        DECLARE
          deadline CONSTANT timestamptz := clock_timestamp() + interval '%d milliseconds';
        BEGIN
          WHILE NOT coalesce((SELECT received_tli = %d FROM pg_stat_wal_receiver), false)
                OR pg_last_wal_replay_lsn() < '%s'::pg_lsn LOOP
            IF clock_timestamp() >= deadline THEN
              RAISE EXCEPTION 'WAL position %% not replayed within %% ms', '%s', %d
                USING ERRCODE = '%s';
            END IF;
            PERFORM pg_sleep(0.001);
          END LOOP;
        END
        $wait$"""
        .formatted(
            millis,
            target.timeline(),
            WalPosition.text(target.lsn()),
            WalPosition.text(target.lsn()),
            millis,
            WAIT_EXPIRED);
  }
}

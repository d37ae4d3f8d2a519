package io.tidemark.dialect;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL standby's wait for its replay to reach a WAL position: polls until PostgreSQL 19,
 * one {@code WAIT FOR LSN} between two looks from 19 on. Each look tells where replay was.
 *
 * <p>PostgreSQL before 19 has no server function that waits for a position. The wait polls the
 * replay position with short autocommit statements, each its own transaction: a statement that
 * waited on the server would hold one snapshot throughout, and replaying a cleanup record (a
 * vacuum's, a pruned page's) between the standby's position and the token waits for every snapshot
 * that old, so the wait would stop the replay it waits for. The read that follows takes a fresh
 * snapshot, as each autocommit statement does.
 */
final class ReplayWait {

  /**
   * How long the wait polls without pausing before it polls every millisecond: about as long as
   * most replays take on a healthy standby.
   */
  private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(1_000);

  /**
   * Whether replay reached {@code target} within {@code millis}; {@code null} when the standby does
   * not receive {@code target}'s timeline (or is no standby), and waiting for it is useless. An
   * interrupted thread stops polling, its interrupt kept.
   */
  static @Nullable Boolean until(
      Connection connection, WalPosition target, long millis, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    boolean onServer = PostgresServer.major(connection) >= 19;
    Look look = new Look(connection, target, seen);
    if (onServer) {
      return waitOnServer(connection, look, millis);
    }
    Ticker ticker = Ticker.systemTicker();
    long begun = ticker.read();
    Deadline end = Deadline.after(Duration.ofMillis(millis), ticker);
    try (look) {
      while (true) {
        // Each poll is bounded by what is left of the wait and the grace a wait gets: the caller's
        // bound was set for the whole wait, and a standby frozen midway must not hold it longer.
        SocketTimeout.tighten(connection, SocketTimeout.socketMillis(end.remaining()));
        Boolean reached = look.reached();
        if (!Boolean.FALSE.equals(reached)) {
          return reached;
        }
        long left = end.remaining().toNanos();
        if (left <= 0 || Thread.currentThread().isInterrupted()) {
          return Boolean.FALSE;
        }
        if (ticker.read() - begun >= SPIN_NANOS) {
          LockSupport.parkNanos(Math.min(PostgresDialect.PAUSE_NANOS, left));
        }
      }
    }
  }

  /**
   * PostgreSQL 19's {@code WAIT FOR LSN}, which returns when replay reaches the position, holding
   * no snapshot, between two looks at the standby: it knows no timelines, so a look before tells
   * whether the standby receives the target's, and one after whether replay reached the target on
   * it.
   */
  private static @Nullable Boolean waitOnServer(Connection connection, Look look, long millis)
      throws SQLException {
    Deadline end = Deadline.after(Duration.ofMillis(millis), Ticker.systemTicker());
    try (look) {
      Boolean reached = look.reached();
      long left = end.remaining().toMillis();
      if (!Boolean.FALSE.equals(reached) || left <= 0) {
        return reached;
      }
      SocketTimeout.tighten(connection, SocketTimeout.socketMillis(end.remaining()));
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery(waitFor(WalPosition.text(look.target.lsn()), left))) {
        rs.next();
        if ("not in recovery".equals(rs.getString(1))) {
          return null;
        }
      }
      SocketTimeout.tighten(connection, SocketTimeout.socketMillis(end.remaining()));
      return look.reached();
    }
  }

  /**
   * Looks at a standby for {@code target}, one {@link #POLL} each, and tells {@code seen} each
   * replay position it had not told yet.
   */
  private static final class Look implements AutoCloseable {
    private final WalPosition target;
    private final @Nullable Consumer<GtidSet> seen;
    private final PreparedStatement poll;
    private final long systemId;
    private long told;

    Look(Connection connection, WalPosition target, @Nullable Consumer<GtidSet> seen)
        throws SQLException {
      this.target = target;
      this.seen = seen;
      this.systemId = PostgresServer.systemId(connection);
      this.poll = connection.prepareStatement(POLL);
      poll.setLong(1, target.timeline());
      poll.setString(2, WalPosition.text(target.lsn()));
    }

    /** Reached, not yet ({@code false}), or never on this standby ({@code null}). */
    @Nullable Boolean reached() throws SQLException {
      try (ResultSet rs = poll.executeQuery()) {
        rs.next();
        Boolean reached = rs.getBoolean(1) ? Boolean.TRUE : rs.getBoolean(2) ? null : Boolean.FALSE;
        long timeline = rs.getLong(3);
        String replayed = rs.getString(4);
        if (!rs.wasNull() && timeline > 0 && replayed != null) {
          long lsn = WalPosition.parseLsn(replayed);
          if (lsn > told && seen != null) {
            told = lsn;
            seen.accept(new WalPosition(systemId, timeline, lsn).toGtidSet());
          }
        }
        return reached;
      }
    }

    @Override
    public void close() throws SQLException {
      poll.close();
    }
  }

  /**
   * PostgreSQL 19's wait for replay to reach {@code lsn} (text, as the server prints it) within
   * {@code millis}: it answers {@code success}, {@code timeout} or {@code not in recovery}. A
   * statement of its own, since it takes no parameters; the LSN is hexadecimal digits and a slash.
   */
  static String waitFor(String lsn, long millis) {
    if (!lsn.matches("[0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8}")) {
      throw new IllegalArgumentException("not an LSN: " + lsn);
    }
    return "WAIT FOR LSN '" + lsn + "' WITH (TIMEOUT '" + millis + "ms', NO_THROW)";
  }

  /**
   * One look at the standby: whether replay has reached the LSN of the second parameter on the
   * timeline of the first, whether the standby receives another timeline or none, which ends the
   * wait at once, and the timeline it receives with its replay position.
   */
  static final String POLL =
      """
      WITH t AS (SELECT ?::int AS tli, ?::pg_lsn AS lsn)
      SELECT r.tli IS NOT DISTINCT FROM t.tli AND pg_last_wal_replay_lsn() >= t.lsn,
             r.tli IS DISTINCT FROM t.tli,
             r.tli, pg_last_wal_replay_lsn()::text
        FROM t LEFT JOIN LATERAL (SELECT received_tli AS tli FROM pg_stat_wal_receiver) r ON true""";

  private ReplayWait() {}
}

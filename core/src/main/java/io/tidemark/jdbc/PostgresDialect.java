package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's {@link Dialect}, for a primary and its hot standbys on streaming replication. What a
 * server has executed is a {@link WalPosition}: on the primary the WAL insert position, read on the
 * committing connection right after the commit, so at or past the commit record; on a standby the
 * replay position, on the timeline it receives. A standby whose WAL receiver is not running (or
 * whose user may not see it: {@code pg_read_all_stats}) has no known timeline and executed nothing
 * Tidemark can vouch for.
 *
 * <p>PostgreSQL has no server function that waits for a position. The wait is a loop run by the
 * server in one statement, checking the replay position every millisecond until the budget ends: no
 * client polling, and a fresh snapshot for the read that follows, as each autocommit statement
 * takes its own.
 */
final class PostgresDialect implements Dialect {

  static final PostgresDialect INSTANCE = new PostgresDialect();

  /**
   * The SQLSTATE of a wait whose budget ran out; class {@code TM} is neither PostgreSQL's nor
   * SQL's.
   */
  static final String WAIT_EXPIRED = "TM001";

  private static final String POSITION =
      """
      SELECT s.system_identifier, p.recovery, p.lsn::text,
             CASE WHEN p.recovery THEN (SELECT received_tli FROM pg_stat_wal_receiver) END,
             CASE WHEN NOT p.recovery THEN substr(pg_walfile_name(p.lsn), 1, 8) END,
             current_setting('wal_block_size')::int,
             (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size'),
             coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0)
               || '@' || (extract(epoch FROM pg_postmaster_start_time()) * 1000)::bigint
        FROM pg_control_system() s,
             (SELECT pg_is_in_recovery() AS recovery,
                     CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
                          ELSE pg_current_wal_insert_lsn() END AS lsn) p""";

  private PostgresDialect() {}

  /** What one read of {@link #POSITION} tells. */
  private record State(String id, boolean standby, @Nullable WalPosition position) {

    GtidSet executed() {
      return position == null ? GtidSet.EMPTY : position.toGtidSet();
    }
  }

  private static State state(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(POSITION)) {
      rs.next();
      long systemId = rs.getLong(1);
      boolean standby = rs.getBoolean(2);
      String lsnText = rs.getString(3);
      long timeline = standby ? rs.getLong(4) : Long.parseLong(rs.getString(5), 16);
      boolean timelineKnown = !rs.wasNull();
      int blockSize = rs.getInt(6);
      long segmentSize = rs.getLong(7);
      String id = rs.getString(8);
      if (lsnText == null || !timelineKnown) {
        return new State(id, standby, null);
      }
      long lsn = WalPosition.parseLsn(lsnText);
      if (!standby) {
        lsn = WalPosition.lastRecordEnd(lsn, blockSize, segmentSize);
      }
      return new State(id, standby, new WalPosition(systemId, timeline, lsn));
    }
  }

  @Override
  public Server server(Connection connection) throws SQLException {
    State state = state(connection);
    return new Server(state.id(), state.executed());
  }

  @Override
  public GtidSet executed(Connection connection) throws SQLException {
    return state(connection).executed();
  }

  @Override
  public boolean hasExecuted(Connection connection, GtidSet required) throws SQLException {
    return state(connection).executed().containsAll(required);
  }

  @Override
  public @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    return required.subtract(state(connection).executed());
  }

  @Override
  public boolean await(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    long begun = System.nanoTime();
    State state = state(connection);
    if (state.executed().containsAll(required)) {
      return true;
    }
    WalPosition target = reachable(required, state);
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
   * The one position of {@code required} that replay on this standby can still reach, or {@code
   * null} when waiting cannot help: a primary has what it has, and a standby replays only its own
   * cluster on the timeline it receives.
   */
  private static @Nullable WalPosition reachable(GtidSet required, State state) {
    WalPosition here = state.position();
    Set<UUID> origins = required.uuids();
    if (!state.standby() || here == null || origins.size() != 1) {
      return null;
    }
    WalPosition wanted = WalPosition.in(required, origins.iterator().next());
    return wanted != null
            && wanted.systemId() == here.systemId()
            && wanted.timeline() == here.timeline()
        ? wanted
        : null;
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

package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What a PostgreSQL server is and has executed, read in one round trip (what never changes, once
 * per physical connection): the read path asks it before a wait, the topology's probe every
 * refresh.
 *
 * <p>On a primary the position is the WAL insert position: read on the committing connection right
 * after a commit, it is at or past the commit record. On a standby it is the replay position, on
 * the timeline the standby receives; a standby whose WAL receiver is not running, or whose role may
 * not see it ({@code pg_monitor} lets it), has no known timeline and so no position Tidemark can
 * vouch for.
 *
 * <p>A promotion starts a new timeline where the old one ended on the promoted standby (its switch
 * point); WAL the old primary wrote past it is lost. A server's executed set therefore also holds
 * each earlier timeline up to its switch point, from the timeline's history file: the role needs
 * {@code EXECUTE} on {@code pg_read_file(text)}, which reads files of the data directory. A token
 * written before a failover is then found on the new primary when its write survived and missing
 * when it was lost, as with MySQL's GTIDs. Without the history, earlier timelines are unknown and
 * tokens holding them refused, which a warning says once.
 *
 * @param identity what never changes while the connection lives
 * @param standby whether the server is a standby (in recovery)
 * @param position the server's timeline and position: replayed on a standby, the end of the last
 *     record on a primary; {@code null} when unknown
 * @param switches the switch points of the timelines before {@link #position}'s
 * @param receiving whether a standby's WAL receiver streams from its upstream
 * @param replayPaused whether a standby's replay is paused ({@code pg_wal_replay_pause()})
 * @param receiverHidden whether a standby's WAL receiver runs but the role may not see it: grant it
 *     pg_monitor
 * @param flushed a primary's flushed position, 0 on a standby
 * @param synchronousCommit whether the session's commits wait for their WAL to be flushed
 */
record PostgresServer(
    PostgresServer.Identity identity,
    boolean standby,
    @Nullable WalPosition position,
    List<WalPosition> switches,
    boolean receiving,
    boolean replayPaused,
    boolean receiverHidden,
    long flushed,
    boolean synchronousCommit) {

  /** What never changes while a connection lives: asked once per physical connection. */
  private static final String IDENTITY =
      """
      SELECT system_identifier,
             coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0)
               || '@' || (extract(epoch FROM pg_postmaster_start_time()) * 1000)::bigint,
             current_setting('wal_block_size')::int,
             (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size'),
             has_function_privilege('pg_catalog.pg_read_file(text)', 'EXECUTE'),
             quote_ident(current_user), current_database(), pg_backend_pid(),
             current_setting('server_version_num')::int / 10000
        FROM pg_control_system()""";

  private static final String STATE =
      """
      SELECT p.recovery, p.lsn::text,
             CASE WHEN p.recovery THEN w.received_tli END,
             CASE WHEN NOT p.recovery THEN substr(pg_walfile_name(p.lsn), 1, 8) END,
             w.status = 'streaming',
             p.recovery AND pg_is_wal_replay_paused(),
             w.pid IS NOT NULL AND w.status IS NULL,
             CASE WHEN NOT p.recovery THEN pg_current_wal_flush_lsn()::text END,
             current_setting('synchronous_commit') <> 'off'
        FROM (SELECT pg_is_in_recovery() AS recovery,
                     CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
                          ELSE pg_current_wal_insert_lsn() END AS lsn) p
             LEFT JOIN pg_stat_wal_receiver w ON true""";

  /** What {@link #IDENTITY} tells. */
  record Identity(
      long systemId,
      String id,
      int blockSize,
      long segmentSize,
      boolean historiesReadable,
      String role,
      String database,
      int backendPid,
      int major) {}

  /** By physical connection, weakly: a pool's connections are asked once each. */
  private static final Map<Connection, Identity> IDENTITIES =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Reads the server behind {@code connection}: one round trip, two on a new connection. */
  static PostgresServer read(Connection connection) throws SQLException {
    Identity identity = identity(connection);
    // Prepared, so that the driver has the server plan it once per connection: planned anew at
    // every capture, its join with pg_stat_wal_receiver cost about 100 µs more than the round trip.
    try (PreparedStatement s = connection.prepareStatement(STATE);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      boolean standby = rs.getBoolean(1);
      String lsnText = rs.getString(2);
      long timeline = standby ? rs.getLong(3) : Long.parseLong(rs.getString(4), 16);
      boolean timelineKnown = !rs.wasNull();
      boolean receiving = rs.getBoolean(5);
      boolean replayPaused = rs.getBoolean(6);
      boolean receiverHidden = rs.getBoolean(7);
      String flushedText = rs.getString(8);
      long flushed = flushedText == null ? 0 : WalPosition.parseLsn(flushedText);
      boolean synchronousCommit = rs.getBoolean(9);
      WalPosition position = null;
      List<WalPosition> switches = List.of();
      if (lsnText != null && timelineKnown) {
        long lsn = WalPosition.parseLsn(lsnText);
        if (!standby) {
          lsn = WalPosition.lastRecordEnd(lsn, identity.blockSize(), identity.segmentSize());
        }
        position = new WalPosition(identity.systemId(), timeline, lsn);
        switches = TimelineHistories.switches(connection, position);
      }
      return new PostgresServer(
          identity,
          standby,
          position,
          switches,
          receiving,
          replayPaused,
          receiverHidden,
          flushed,
          synchronousCommit);
    }
  }

  /**
   * The system identifier of the cluster behind {@code connection}: a round trip on a new
   * connection only.
   */
  static long systemId(Connection connection) throws SQLException {
    return identity(connection).systemId();
  }

  /**
   * The major version of the server behind {@code connection}: a round trip on a new connection
   * only.
   */
  static int major(Connection connection) throws SQLException {
    return identity(connection).major();
  }

  /**
   * The process id of the backend behind {@code connection}, when it was read before (by any read
   * of the server on it), else {@code null}: no round trip, so it can be asked after the connection
   * broke.
   */
  static @Nullable Integer knownBackendPid(Connection connection) throws SQLException {
    Identity known = IDENTITIES.get(physical(connection));
    return known == null ? null : known.backendPid();
  }

  private static Connection physical(Connection connection) throws SQLException {
    return connection.isWrapperFor(Connection.class)
        ? connection.unwrap(Connection.class)
        : connection;
  }

  private static Identity identity(Connection connection) throws SQLException {
    Connection physical = physical(connection);
    Identity known = IDENTITIES.get(physical);
    if (known != null) {
      return known;
    }
    Identity read;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(IDENTITY)) {
      rs.next();
      read =
          new Identity(
              rs.getLong(1),
              rs.getString(2),
              rs.getInt(3),
              rs.getLong(4),
              rs.getBoolean(5),
              rs.getString(6),
              rs.getString(7),
              rs.getInt(8),
              rs.getInt(9));
    }
    IDENTITIES.put(physical, read);
    return read;
  }

  /** Who the server is: address, port and start time, as it sees them. */
  String id() {
    return identity.id();
  }

  /**
   * Whether the role may read timeline histories ({@code EXECUTE} on {@code pg_read_file(text)}),
   * without which tokens written before a failover are refused after it.
   */
  boolean historiesReadable() {
    return identity.historiesReadable();
  }

  /**
   * The statements that give the connection's role what {@link #receiverHidden} and {@link
   * #historiesReadable} find it lacks; the second in the database the role connects to, since each
   * database has its own {@code pg_read_file}. Empty when it lacks nothing.
   */
  List<String> grants() {
    List<String> grants = new ArrayList<>();
    if (receiverHidden) {
      grants.add("GRANT pg_monitor TO " + identity.role() + ";");
    }
    if (!identity.historiesReadable()) {
      grants.add("GRANT EXECUTE ON FUNCTION pg_read_file(text) TO " + identity.role() + ";");
    }
    return grants;
  }

  /** The database the connection is in: where a grant on a function must be run. */
  String database() {
    return identity.database();
  }

  /**
   * The position with each earlier timeline as far as this server replayed it: the whole of it on a
   * primary, up to its own position on a standby still replaying a timeline whose next it has
   * received. Empty when the position is unknown.
   */
  GtidSet executed() {
    return position == null ? GtidSet.EMPTY : reaching(position.lsn());
  }

  /** This server's timeline up to {@code lsn}, with each earlier timeline as far as it reaches. */
  private GtidSet reaching(long lsn) {
    WalPosition here = Objects.requireNonNull(position);
    GtidSet executed = new WalPosition(here.systemId(), here.timeline(), lsn).toGtidSet();
    for (WalPosition end : switches) {
      executed =
          executed.union(
              new WalPosition(end.systemId(), end.timeline(), Math.min(end.lsn(), lsn))
                  .toGtidSet());
    }
    return executed;
  }

  /**
   * On the primary, right after a commit on the same connection, a position that contains the
   * commit, as close to it as can be known. A synchronous commit returns once its WAL is flushed,
   * so the flushed position contains it; WAL inserted after it and not flushed yet (a page pruned
   * by another session's read, say) would otherwise keep every standby short of the token until the
   * primary next flushes, which on a quiet primary may take minutes. An asynchronous commit may not
   * be flushed yet: only the insert position contains it. Whether the commit was synchronous is the
   * session's {@code synchronous_commit}, unless the transaction may have changed it for itself
   * ({@code ownSynchronousCommit}).
   */
  GtidSet committed(boolean ownSynchronousCommit) {
    if (standby
        || position == null
        || !synchronousCommit
        || ownSynchronousCommit
        || flushed >= position.lsn()) {
      return executed();
    }
    return reaching(flushed);
  }

  /**
   * The position on this standby's timeline whose replay brings all of {@code required}, or {@code
   * null} when waiting cannot help: a primary has what it has, and a standby replays only its own
   * cluster, on its timeline and the part of each earlier one before its switch point.
   */
  @Nullable WalPosition reachable(GtidSet required) {
    WalPosition here = position;
    if (!standby || here == null) {
      return null;
    }
    long furthest = 0;
    for (UUID origin : required.uuids()) {
      WalPosition wanted = WalPosition.in(required, origin);
      if (wanted == null || !onTimelineOf(wanted, here)) {
        return null;
      }
      furthest = Math.max(furthest, wanted.lsn());
    }
    return new WalPosition(here.systemId(), here.timeline(), furthest);
  }

  private boolean onTimelineOf(WalPosition wanted, WalPosition here) {
    if (wanted.systemId() != here.systemId()) {
      return false;
    }
    if (wanted.timeline() == here.timeline()) {
      return true;
    }
    for (WalPosition end : switches) {
      if (end.timeline() == wanted.timeline()) {
        return wanted.lsn() <= end.lsn();
      }
    }
    return false;
  }
}

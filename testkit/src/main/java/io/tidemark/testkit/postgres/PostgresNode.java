package io.tidemark.testkit.postgres;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.Poll;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One PostgreSQL server of a {@link PostgresTopology}: how to reach it, where its WAL stands, and
 * the faults a test can inflict on it. Every call opens its own short-lived connection.
 */
public final class PostgresNode extends DatabaseNode<PostgresNode.Role> {

  /** What a node is in the topology now; changes on {@link PostgresTopology#promote failover}. */
  public enum Role {
    /** The writable primary. */
    PRIMARY,
    /** A hot standby streaming from the primary. */
    STANDBY,
    /** A primary that was replaced by a failover. */
    FORMER_PRIMARY
  }

  private final PostgresServerProcess process;
  private volatile String primaryConninfo = "";

  PostgresNode(String name, PostgresServerProcess process, Role role) {
    super(name, process, role);
    this.process = process;
  }

  /** The superuser; it needs no password from loopback. */
  @Override
  public String user() {
    return PostgresServerProcess.USER;
  }

  /** {@link #walLsn()}. */
  @Override
  public String position() {
    return walLsn();
  }

  @Override
  public boolean awaitPosition(String position, Duration timeout) {
    return awaitLsn(position, timeout);
  }

  @Override
  protected String defaultDatabase() {
    return "postgres";
  }

  @Override
  protected String url(int port, String database) {
    return "jdbc:postgresql://" + HOST + ":" + port + "/" + database + "?connectTimeout=5";
  }

  /** Whether it is in recovery ({@code pg_is_in_recovery()}): a standby. */
  public boolean inRecovery() {
    return "t".equals(queryString("SELECT pg_is_in_recovery()"));
  }

  /**
   * Where its WAL stands: the insert position on a primary ({@code pg_current_wal_lsn()}), the last
   * replayed on a standby ({@code pg_last_wal_replay_lsn()}).
   */
  public String walLsn() {
    return String.valueOf(
        queryString(
            "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
                + " ELSE pg_current_wal_lsn() END"));
  }

  /**
   * Its timeline: the one a primary writes (from its WAL file name, current at once after a
   * promotion), the one a standby receives, or for a standby not receiving its last restart
   * point's.
   */
  public long timeline() {
    String hex =
        queryString(
            "SELECT CASE WHEN NOT pg_is_in_recovery()"
                + " THEN substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)"
                + " ELSE lpad(to_hex(coalesce((SELECT received_tli FROM pg_stat_wal_receiver),"
                + " (SELECT timeline_id FROM pg_control_checkpoint()))), 8, '0') END");
    return Long.parseLong(String.valueOf(hex), 16);
  }

  /**
   * Waits up to {@code timeout} until this standby has replayed {@code lsn}; returns whether it
   * did. A primary has it once its own position is past it.
   */
  public boolean awaitLsn(String lsn, Duration timeout) {
    return Poll.until(
        () -> {
          try (Connection c = admin();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
                          + " ELSE pg_current_wal_lsn() END) >= ?::pg_lsn")) {
            ps.setString(1, lsn);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() && rs.getBoolean(1);
            }
          } catch (SQLException e) {
            return false;
          }
        },
        timeout);
  }

  /** Pauses WAL replay ({@code pg_wal_replay_pause()}): WAL still arrives, none is applied. */
  public void pauseReplay() {
    execute("SELECT pg_wal_replay_pause()");
  }

  public void resumeReplay() {
    execute("SELECT pg_wal_replay_resume()");
  }

  /**
   * Resumes replay {@code delay} from now, on another thread: a write made while it is paused then
   * reaches this standby at a known time, while the test waits for it.
   */
  public CompletableFuture<Void> resumeReplayAfter(Duration delay) {
    return after(delay, this::resumeReplay);
  }

  /** Stops the WAL receiver: no new WAL arrives from the primary. */
  public void stopReceiver() {
    String conninfo = queryString("SHOW primary_conninfo");
    if (conninfo != null && !conninfo.isEmpty()) {
      primaryConninfo = conninfo;
    }
    execute("ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()");
  }

  /** Starts the WAL receiver again after {@link #stopReceiver()}. */
  public void startReceiver() {
    execute(
        "ALTER SYSTEM SET primary_conninfo = '" + primaryConninfo.replace("'", "''") + "'",
        "SELECT pg_reload_conf()");
  }

  void becomePrimary() {
    execute("SELECT pg_promote(true, 60)");
    role(Role.PRIMARY);
  }

  void becomeFormerPrimary() {
    role(Role.FORMER_PRIMARY);
  }

  /** Streams from {@code primary} from now on, following its new timeline. */
  void followFrom(PostgresNode primary) {
    primaryConninfo = "host=" + HOST + " port=" + primary.port() + " user=" + user();
    execute(
        "ALTER SYSTEM SET primary_conninfo = '" + primaryConninfo + "'",
        "ALTER SYSTEM SET primary_slot_name = ''",
        "SELECT pg_reload_conf()");
  }

  @Override
  protected Connection admin() throws SQLException {
    return DriverManager.getConnection(jdbcUrl() + "&socketTimeout=120", user(), password());
  }

  @Override
  protected void launch() {
    process.launch();
  }

  PostgresServerProcess process() {
    return process;
  }
}

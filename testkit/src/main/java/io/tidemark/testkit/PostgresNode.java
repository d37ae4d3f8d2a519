package io.tidemark.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One PostgreSQL server of a {@link PostgresTopology}: how to reach it, where its WAL stands, and
 * the faults a test can inflict on it. Every call opens its own short-lived connection.
 */
public final class PostgresNode {

  /** What a node is in the topology now; changes on {@link PostgresTopology#promote failover}. */
  public enum Role {
    /** The writable primary. */
    PRIMARY,
    /** A hot standby streaming from the primary. */
    STANDBY,
    /** A primary that was replaced by a failover. */
    FORMER_PRIMARY
  }

  private static final String HOST = "127.0.0.1";

  private final String name;
  private final PostgresServerProcess process;
  private final FaultLinks links;
  private volatile Role role;
  private volatile String primaryConninfo = "";

  PostgresNode(String name, PostgresServerProcess process, Role role) {
    this.name = name;
    this.process = process;
    this.links = new FaultLinks(HOST, process.port());
    this.role = role;
  }

  /** Name in the topology: {@code primary}, {@code standby1}, {@code standby2}, … */
  public String name() {
    return name;
  }

  public Role role() {
    return role;
  }

  public String host() {
    return HOST;
  }

  public int port() {
    return process.port();
  }

  /** The superuser; it needs no password from loopback. */
  public String user() {
    return PostgresServerProcess.USER;
  }

  public String password() {
    return "";
  }

  /** JDBC URL of the {@code postgres} database. */
  public String jdbcUrl() {
    return jdbcUrl("postgres");
  }

  /** JDBC URL of {@code database}. */
  public String jdbcUrl(String database) {
    return url(port(), database);
  }

  private static String url(int port, String database) {
    return "jdbc:postgresql://" + HOST + ":" + port + "/" + database + "?connectTimeout=5";
  }

  /**
   * The {@link FaultLink} named {@code name} to this server, opened on first use and closed with
   * the topology. It outlives a {@link #kill()} and {@link #restart()}, which keep the port.
   * Streaming replication never goes through a link.
   */
  public FaultLink link(String name) {
    return links.named(name);
  }

  /** JDBC URL of {@code database} through the {@link #link(String) link} named {@code link}. */
  public String jdbcUrlThrough(String link, String database) {
    return url(link(link).port(), database);
  }

  /** Runs statements in order on one connection, in autocommit mode. */
  public void execute(String... statements) {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new TestkitException(name + ": " + e.getMessage(), e);
    }
  }

  /** Runs a query and returns the first column of its first row, or {@code null}. */
  public @Nullable String queryString(String sql) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new TestkitException(name + ": " + e.getMessage(), e);
    }
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
          try (Connection c = connect();
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
    return CompletableFuture.runAsync(
        this::resumeReplay,
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS));
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

  /** Suspends the postmaster and its processes (SIGSTOP): connections hang, nothing answers. */
  public void freeze() {
    process.freeze();
  }

  /** Resumes a {@link #freeze() frozen} server (SIGCONT). */
  public void thaw() {
    process.thaw();
  }

  /** Kills the server (SIGKILL), like a crash. */
  public void kill() {
    process.kill();
  }

  /** Starts a killed server again on the same port and data; it recovers, then serves. */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " is still running; kill() it first");
    }
    process.launch();
    process.awaitReady(jdbcUrl());
  }

  /** Whether the postmaster runs (it may be frozen). */
  public boolean isRunning() {
    return process.isAlive();
  }

  void becomePrimary() {
    execute("SELECT pg_promote(true, 60)");
    role = Role.PRIMARY;
  }

  void becomeFormerPrimary() {
    role = Role.FORMER_PRIMARY;
  }

  /** Streams from {@code primary} from now on, following its new timeline. */
  void followFrom(PostgresNode primary) {
    primaryConninfo = "host=" + HOST + " port=" + primary.port() + " user=" + user();
    execute(
        "ALTER SYSTEM SET primary_conninfo = '" + primaryConninfo + "'",
        "ALTER SYSTEM SET primary_slot_name = ''",
        "SELECT pg_reload_conf()");
  }

  PostgresServerProcess process() {
    return process;
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl() + "&socketTimeout=120", user(), password());
  }

  void closeLinks() {
    links.closeAll();
  }

  @Override
  public String toString() {
    return name + " (" + role + ", 127.0.0.1:" + port() + ")";
  }
}

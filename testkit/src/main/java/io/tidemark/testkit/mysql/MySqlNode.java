package io.tidemark.testkit.mysql;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.mysql.ReplicationDialect.Thread;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One MySQL server of a {@link MySqlTopology}: how to reach it, what it has executed, and the
 * faults a test can inflict on it. Every call opens its own short-lived connection, so a frozen or
 * killed server never poisons later calls.
 */
public final class MySqlNode extends DatabaseNode<MySqlNode.Role> {

  /** What a node is in the topology now; changes on {@link MySqlTopology#promote failover}. */
  public enum Role {
    /** The writable source. */
    SOURCE,
    /** A super-read-only replica of the source. */
    REPLICA,
    /** A source that was replaced by a failover. */
    FORMER_SOURCE
  }

  /** What {@link #replicationStatus()} reads from {@code performance_schema}. */
  public record ReplicationStatus(
      String receiverState,
      String applierState,
      String lastReceiverError,
      String lastApplierError) {

    /** Whether both the receiver (IO) and applier (SQL) threads run. */
    public boolean running() {
      return "ON".equals(receiverState) && "ON".equals(applierState);
    }
  }

  private static final String URL_OPTIONS =
      "?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=5000";
  private static final String ADMIN_OPTIONS = "&socketTimeout=120000";

  private final MySqlServer process;
  private final ReplicationDialect dialect;
  private final ServerVersion version;
  private volatile boolean readOnly;

  MySqlNode(String name, MySqlServer process, ServerVersion version, Role role) {
    super(name, process, role);
    this.process = process;
    this.version = version;
    this.dialect = new ReplicationDialect(version);
    this.readOnly = role == Role.REPLICA;
  }

  @Override
  public String user() {
    return MySqlServerProcess.USER;
  }

  /** {@code gtid_executed}. */
  @Override
  public String position() {
    return gtidExecuted();
  }

  @Override
  public boolean awaitPosition(String position, Duration timeout) {
    return awaitGtidSet(position, timeout);
  }

  @Override
  protected String behind() {
    return "it has " + gtidExecuted() + ", replication " + replicationStatus();
  }

  /** No default database: URLs name one, or none. */
  @Override
  protected String defaultDatabase() {
    return "";
  }

  @Override
  protected String url(int port, String database) {
    return urlOf(port, database);
  }

  @Override
  protected Connection admin() throws SQLException {
    return DriverManager.getConnection(jdbcUrl() + ADMIN_OPTIONS, user(), password());
  }

  /** Super-read-only when it was before it went down. */
  @Override
  protected void launch() {
    process.launch(readOnly);
  }

  /** The server's version, as the running server reports it ({@code SELECT VERSION()}). */
  public ServerVersion version() {
    return version;
  }

  /** Checks that the running server reports the version its binary printed. */
  void checkReportedVersion() {
    ServerVersion reported = ServerVersion.parse(value("SELECT VERSION()"));
    if (!reported.equals(version)) {
      throw new TestkitException(
          name() + " reports version " + reported + ", its binary printed " + version);
    }
  }

  /** JDBC URL of {@code database} on a server on {@code port}, also before it is a node. */
  static String urlOf(int port, String database) {
    return "jdbc:mysql://" + HOST + ":" + port + "/" + database + URL_OPTIONS;
  }

  /** JDBC URL through the {@link #link(String) link} named {@code link}. */
  public String jdbcUrlThrough(String link) {
    return jdbcUrlThrough(link, "");
  }

  /** Opens a new connection as {@link #user()}; the caller closes it. */
  public Connection openConnection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), user(), password());
  }

  /** Opens a new connection with {@code database} as default; the caller closes it. */
  public Connection openConnection(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user(), password());
  }

  public String serverUuid() {
    return value("SELECT @@GLOBAL.server_uuid");
  }

  /** {@code @@GLOBAL.gtid_executed} on one line, as the server normalizes it. */
  public String gtidExecuted() {
    String value = queryString("SELECT @@GLOBAL.gtid_executed");
    return value == null ? "" : value.replace("\n", "");
  }

  /**
   * Waits up to {@code timeout} (whole seconds, at least one) until this server has executed {@code
   * gtidSet}; returns whether it did.
   */
  public boolean awaitGtidSet(String gtidSet, Duration timeout) {
    long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
    try (Connection c = admin();
        PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      ps.setString(1, gtidSet);
      ps.setLong(2, seconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 0;
      }
    } catch (SQLException e) {
      throw new TestkitException(name() + ": " + e.getMessage(), e);
    }
  }

  /** State of the replication threads from {@code performance_schema}. */
  public ReplicationStatus replicationStatus() {
    String sql =
        "SELECT c.SERVICE_STATE, a.SERVICE_STATE, c.LAST_ERROR_MESSAGE,"
            + " (SELECT GROUP_CONCAT(w.LAST_ERROR_MESSAGE)"
            + "  FROM performance_schema.replication_applier_status_by_worker w"
            + "  WHERE w.CHANNEL_NAME = '' AND w.LAST_ERROR_NUMBER <> 0)"
            + " FROM performance_schema.replication_connection_status c"
            + " JOIN performance_schema.replication_applier_status a USING (CHANNEL_NAME)"
            + " WHERE c.CHANNEL_NAME = ''";
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      if (!rs.next()) {
        return new ReplicationStatus("OFF", "OFF", "", "");
      }
      return new ReplicationStatus(
          rs.getString(1), rs.getString(2), orEmpty(rs.getString(3)), orEmpty(rs.getString(4)));
    } catch (SQLException e) {
      throw new TestkitException(name() + ": " + e.getMessage(), e);
    }
  }

  /** Stops the applier (SQL) thread: events still arrive, none are applied. */
  public void pauseApplier() {
    execute(dialect.stop(Thread.APPLIER));
  }

  public void resumeApplier() {
    execute(dialect.start(Thread.APPLIER));
  }

  /**
   * Resumes the applier {@code delay} from now, on another thread: a write made while it is paused
   * then reaches this replica at a known time, while the test waits for it.
   */
  public CompletableFuture<Void> resumeApplierAfter(Duration delay) {
    return after(delay, this::resumeApplier);
  }

  /** Stops the receiver (IO) thread: no new events arrive from the source. */
  public void stopReceiver() {
    execute(dialect.stop(Thread.RECEIVER));
  }

  public void startReceiver() {
    execute(dialect.start(Thread.RECEIVER));
  }

  /**
   * Delays the applier by {@code delay} ({@code MASTER_DELAY}/{@code SOURCE_DELAY}); zero removes
   * the delay.
   *
   * @throws IllegalArgumentException when {@code delay} is negative or not whole seconds
   */
  public void delayApplier(Duration delay) {
    long seconds = delaySeconds(delay);
    execute(
        dialect.stop(Thread.APPLIER), dialect.changeDelay(seconds), dialect.start(Thread.APPLIER));
  }

  /**
   * Copies the server's data folder as it is now: the server is killed, copied and started again,
   * so the copy is what a crash-consistent volume snapshot or backup would hold, {@code
   * server_uuid} ({@code auto.cnf}) and replication settings included.
   */
  public DataSnapshot snapshot() {
    kill();
    Path copy = ProcessReaper.newFolder("snapshot-" + name());
    try {
      FileTrees.copyRecursively(process.dataDirectory(), copy.resolve("data"));
    } catch (IOException e) {
      throw new TestkitException("cannot copy the data folder of " + name(), e);
    } finally {
      restart();
    }
    return new DataSnapshot(name(), copy.resolve("data"));
  }

  /**
   * A {@link #snapshot()} taken with the applier held by an hour's {@link #delayApplier delay},
   * which is part of the copy: restored, the node keeps lacking what came after the copy until
   * {@code delayApplier(Duration.ZERO)}. The node itself applies again once the copy is taken.
   */
  public DataSnapshot snapshotWithApplierHeld() {
    delayApplier(Duration.ofHours(1));
    try {
      return snapshot();
    } finally {
      delayApplier(Duration.ZERO);
    }
  }

  /**
   * Restores {@code snapshot} as an operator restoring a volume snapshot would: the server is
   * killed, its data folder replaced by the copy, and started again with the same {@code
   * server_uuid} but only what it had executed then. A replica resumes replicating from there.
   *
   * @throws IllegalArgumentException when the snapshot was taken of another node
   */
  public void restore(DataSnapshot snapshot) {
    if (!snapshot.node().equals(name())) {
      throw new IllegalArgumentException(
          "snapshot of " + snapshot.node() + " cannot be restored on " + name());
    }
    kill();
    try {
      FileTrees.deleteRecursively(process.dataDirectory());
      FileTrees.copyRecursively(snapshot.data(), process.dataDirectory());
    } catch (IOException e) {
      throw new TestkitException("cannot restore the data folder of " + name(), e);
    }
    restart();
  }

  /** A copy of a node's data folder, from {@link #snapshot()}. */
  public record DataSnapshot(String node, Path data) {}

  /**
   * Runs statements directly on this node, bypassing replication: on a replica, the transactions
   * get this node's own {@code server_uuid}, which makes them errant GTIDs.
   */
  public void executeErrant(String... statements) {
    String[] all = new String[statements.length + 2];
    all[0] = "SET GLOBAL super_read_only = OFF";
    System.arraycopy(statements, 0, all, 1, statements.length);
    all[all.length - 1] = "SET GLOBAL super_read_only = " + (readOnly ? "ON" : "OFF");
    execute(all);
  }

  void replicateFrom(MySqlNode source) {
    execute(
        dialect.changeSource(
            source.host(),
            source.port(),
            MySqlServerProcess.REPLICATION_USER,
            MySqlServerProcess.REPLICATION_PASSWORD),
        dialect.start(Thread.BOTH));
  }

  void repointTo(MySqlNode source) {
    execute(dialect.stop(Thread.BOTH));
    replicateFrom(source);
  }

  void becomeSource() {
    execute(
        dialect.stop(Thread.BOTH),
        dialect.resetAll(),
        "SET GLOBAL super_read_only = OFF",
        "SET GLOBAL read_only = OFF");
    readOnly = false;
    role(Role.SOURCE);
  }

  void becomeFormerSource(boolean alive) {
    if (alive) {
      execute("SET GLOBAL super_read_only = ON");
      readOnly = true;
    }
    role(Role.FORMER_SOURCE);
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  MySqlServer process() {
    return process;
  }
}

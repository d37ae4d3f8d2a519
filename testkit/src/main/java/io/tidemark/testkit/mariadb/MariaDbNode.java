package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.TestkitException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * One MariaDB server of a {@link MariaDbTopology}: how to reach it, its GTID positions, and the
 * faults a test can inflict on it.
 */
public final class MariaDbNode extends DatabaseNode<MariaDbNode.Role> {

  /** What a node is in the topology now. */
  public enum Role {
    /** The writable source. */
    SOURCE,
    /** A read-only replica of the source. */
    REPLICA,
    /** The source before a {@link MariaDbTopology#promote}: killed, replicating from no one. */
    FORMER_SOURCE
  }

  private static final String URL_OPTIONS =
      "?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=5000";

  private final MariaDbServerProcess process;

  MariaDbNode(String name, MariaDbServerProcess process, Role role) {
    super(name, process, role);
    this.process = process;
  }

  @Override
  public String user() {
    return MariaDbServerProcess.USER;
  }

  /** No default database: URLs name one, or none. */
  @Override
  protected String defaultDatabase() {
    return "";
  }

  /** Connector/J's URL, which the testkit reaches every MySQL-protocol server with. */
  @Override
  protected String url(int port, String database) {
    return "jdbc:mysql://" + HOST + ":" + port + "/" + database + URL_OPTIONS;
  }

  @Override
  protected Connection admin() throws SQLException {
    return DriverManager.getConnection(jdbcUrl() + "&socketTimeout=120000", user(), password());
  }

  @Override
  protected void launch() {
    process.launch(role() == Role.REPLICA);
  }

  /** {@link #gtidBinlogPos()}: every GTID in its binary log, which replicas fetch. */
  @Override
  public String position() {
    return gtidBinlogPos();
  }

  @Override
  public boolean awaitPosition(String position, Duration timeout) {
    return awaitGtid(position, timeout);
  }

  /** The version the running server reports ({@code SELECT VERSION()}). */
  public String version() {
    return value("SELECT VERSION()");
  }

  /**
   * {@code @@GLOBAL.gtid_current_pos}: per replication domain, the last GTID this server applied or
   * wrote, such as {@code 0-1-42}; empty before the first.
   */
  public String gtidCurrentPos() {
    return value("SELECT @@GLOBAL.gtid_current_pos");
  }

  /** {@code @@GLOBAL.gtid_binlog_pos}: the last GTID per domain in its binary log. */
  public String gtidBinlogPos() {
    return value("SELECT @@GLOBAL.gtid_binlog_pos");
  }

  /**
   * Waits up to {@code timeout} until this server has applied {@code position} ({@code
   * MASTER_GTID_WAIT}); returns whether it did.
   */
  public boolean awaitGtid(String position, Duration timeout) {
    try (Connection c = admin();
        PreparedStatement ps = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
      ps.setString(1, position);
      ps.setDouble(2, timeout.toMillis() / 1000.0);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == 0;
      }
    } catch (SQLException e) {
      throw new TestkitException(name() + ": " + e.getMessage(), e);
    }
  }

  /** Whether both replication threads run ({@code SHOW SLAVE STATUS}). */
  public boolean replicating() {
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
      return rs.next()
          && "Yes".equals(rs.getString("Slave_IO_Running"))
          && "Yes".equals(rs.getString("Slave_SQL_Running"));
    } catch (SQLException e) {
      throw new TestkitException(name() + ": " + e.getMessage(), e);
    }
  }

  /** Stops applying (the SQL thread): transactions still arrive, none is applied. */
  public void pauseApplier() {
    execute("STOP SLAVE SQL_THREAD");
  }

  public void resumeApplier() {
    execute("START SLAVE SQL_THREAD");
  }

  /**
   * Has the applier hold each transaction until {@code delay} after its commit on the source
   * ({@code MASTER_DELAY}); {@link Duration#ZERO} removes the delay. The replica keeps replicating,
   * behind.
   *
   * @throws IllegalArgumentException when {@code delay} is negative or not whole seconds
   */
  public void delayApplier(Duration delay) {
    long seconds = delaySeconds(delay);
    // MariaDB changes a replication setting with both threads stopped only.
    execute("STOP SLAVE", "CHANGE MASTER TO MASTER_DELAY = " + seconds, "START SLAVE");
  }

  /** Stops receiving (the IO thread): nothing new arrives from the source. */
  public void stopReceiver() {
    execute("STOP SLAVE IO_THREAD");
  }

  public void startReceiver() {
    execute("START SLAVE IO_THREAD");
  }

  /**
   * Replicates from {@code source} by GTID, from what this server applied, and waits until both
   * threads run.
   */
  void replicateFrom(MariaDbNode source, Duration timeout) {
    execute(
        "CHANGE MASTER TO MASTER_HOST = '"
            + HOST
            + "', MASTER_PORT = "
            + source.port()
            + ", MASTER_USER = '"
            + MariaDbServerProcess.REPLICATION_USER
            + "', MASTER_PASSWORD = '"
            + MariaDbServerProcess.REPLICATION_PASSWORD
            + "', MASTER_USE_GTID = slave_pos",
        "START SLAVE");
    if (!Poll.until(this::replicating, timeout)) {
      throw new TestkitException(name() + " is not replicating from " + source.name());
    }
  }

  /** Stops replicating, forgets its source and takes writes. */
  void becomeSource() {
    execute("STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
    role(Role.SOURCE);
  }

  void becomeFormerSource() {
    role(Role.FORMER_SOURCE);
  }

  /** Replicates from {@code source} from where its own applied position ends. */
  void repointTo(MariaDbNode source) {
    execute("STOP SLAVE");
    replicateFrom(source, Duration.ofSeconds(30));
  }

  MariaDbServerProcess process() {
    return process;
  }
}

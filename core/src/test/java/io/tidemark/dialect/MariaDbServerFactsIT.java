package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the MariaDB dialect relies on, asserted against the running server, whose version is
 * printed: the same on every series the suite runs (Debian's 10.11, trixie's 11.8), or asserted per
 * series.
 */
class MariaDbServerFactsIT {

  private static MariaDbTopology topology;
  private static String series;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(1).start();
    series = topology.binaries().series();
    topology
        .source()
        .execute(
            "CREATE DATABASE facts",
            "CREATE TABLE facts.t (id INT PRIMARY KEY)",
            "CREATE USER 'plain'@'127.0.0.1' IDENTIFIED BY 'plain'",
            "GRANT SELECT, INSERT ON facts.* TO 'plain'@'127.0.0.1'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    System.out.println("MariaDbServerFactsIT on " + topology.binaries());
  }

  @AfterEach
  void applyAgain() {
    if (!topology.replica().replicating()) {
      topology.replica().resumeApplier();
    }
  }

  @AfterAll
  static void stop() {
    if (topology != null) {
      topology.close();
    }
  }

  @Test
  void theWaitComparesSequenceNumbersPerDomainWhateverServerItNames() throws SQLException {
    String last = write(5);
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    String domain = last.substring(0, last.indexOf('-'));
    String sequence = last.substring(last.lastIndexOf('-') + 1);
    try (Connection c = connect(topology.replica())) {
      for (String server : new String[] {"0", "1", "4294967295"}) {
        assertThat(waitFor(c, domain + "-" + server + "-" + sequence, "0.1"))
            .as("server " + server)
            .isEqualTo(0);
      }
    }
  }

  @Test
  void aFractionalTimeoutIsHonouredAndTheStatementTimerEndsTheWaitWithAnError()
      throws SQLException {
    topology.replica().pauseApplier();
    String last = write(6);
    try (Connection c = connect(topology.replica())) {
      long begun = System.nanoTime();
      assertThat(waitFor(c, last, "0.3")).isEqualTo(-1);
      assertThat(System.nanoTime() - begun)
          .isBetween(TimeUnit.MILLISECONDS.toNanos(290), TimeUnit.MILLISECONDS.toNanos(900));

      begun = System.nanoTime();
      assertThatThrownBy(
              () -> {
                try (Statement s = c.createStatement()) {
                  s.execute(
                      "SET STATEMENT max_statement_time=0.2 FOR SELECT MASTER_GTID_WAIT('"
                          + last
                          + "', 5)");
                }
              })
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1969));
      assertThat(System.nanoTime() - begun).isLessThan(TimeUnit.MILLISECONDS.toNanos(900));
      assertThat(waitFor(c, last, "0")).as("the connection is usable after").isEqualTo(-1);
    }
  }

  /** The wait watches gtid_slave_pos, which a source's own writes never move. */
  @Test
  void theWaitOnTheSourceForItsOwnWriteTimesOut() throws SQLException {
    String last = write(7);
    try (Connection c = connect(topology.source())) {
      assertThat(waitFor(c, last, "0.1")).isEqualTo(-1);
    }
  }

  @Test
  void theBinaryLogStateNamesEachServerAndTheCurrentPositionEachDomain() {
    write(8);
    String state = topology.source().queryString("SELECT @@GLOBAL.gtid_binlog_state");
    String current = topology.source().queryString("SELECT @@GLOBAL.gtid_current_pos");

    assertThat(state).matches("\\d+-\\d+-\\d+(,\\d+-\\d+-\\d+)*");
    assertThat(current).matches("\\d+-\\d+-\\d+(,\\d+-\\d+-\\d+)*");
    assertThat(state).contains(current);
    assertThat(topology.source().queryString("SELECT @@GLOBAL.gtid_strict_mode")).isEqualTo("1");
  }

  @Test
  void aWriteIsRefusedByReadOnlyWith1290AndByAReadOnlySessionWith1792() throws SQLException {
    try (Connection c = plain(topology.replica());
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (100)"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1290));
    }
    try (Connection c = plain(topology.source());
        Statement s = c.createStatement()) {
      s.execute("SET SESSION TRANSACTION READ ONLY");
      assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (101)"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getErrorCode()).isEqualTo(1792);
                assertThat(e.getSQLState()).isEqualTo("25006");
              });
    }
  }

  /** Why the dialect tells the session itself: the driver keeps the flag to itself. */
  @Test
  void mariaDbConnectorJsReadOnlyFlagDoesNotReachTheServer() throws SQLException {
    try (Connection c = plain(topology.source())) {
      c.setReadOnly(true);
      try (Statement s = c.createStatement()) {
        s.execute("INSERT INTO t VALUES (102)");
      }
      assertThat(c.isReadOnly()).isTrue();
    }
  }

  @Test
  void theReplicationStateNeedsSlaveMonitor() throws SQLException {
    try (Connection c = plain(topology.replica());
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SHOW ALL SLAVES STATUS").close())
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1227));
    }
  }

  @Test
  void connectorJTellsMariaDbByTheVersionItsGreetingGave() throws SQLException {
    MariaDbNode replica = topology.replica();
    try (Connection c =
        DriverManager.getConnection(replica.jdbcUrl(), replica.user(), replica.password())) {
      String version = c.getMetaData().getDatabaseProductVersion();
      assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("MySQL");
      assertThat(version).contains("MariaDB");
      if (series.equals("10.11")) {
        assertThat(version).startsWith("5.5.5-10.11.");
      } else {
        assertThat(version).startsWith(series + ".");
      }
    }
    try (Connection c = plain(topology.replica())) {
      assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("MariaDB");
      assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith(series + ".");
    }
  }

  /** Writes a row; returns the GTID its commit got. */
  private static String write(int id) {
    try (Connection c = plain(topology.source());
        Statement s = c.createStatement()) {
      s.execute("INSERT INTO t VALUES (" + id + ")");
      try (ResultSet rs = s.executeQuery("SELECT @@SESSION.last_gtid")) {
        rs.next();
        return rs.getString(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int waitFor(Connection c, String gtid, String seconds) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, " + seconds + ")")) {
      ps.setString(1, gtid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static Connection connect(MariaDbNode node) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mariadb://" + node.host() + ":" + node.port() + "/", node.user(), node.password());
  }

  private static Connection plain(MariaDbNode node) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mariadb://" + node.host() + ":" + node.port() + "/facts", "plain", "plain");
  }
}

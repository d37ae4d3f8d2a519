package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestkitExtension.class)
class ReplicationIT {

  private MySqlTopology topology;
  private String db;

  @BeforeEach
  void createTable(MySqlTopology topology) {
    this.topology = topology;
    db = topology.createDatabase("replication");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
  }

  @Test
  void replicasRunWithGtidsAndAreSuperReadOnly() {
    MySqlNode replica = topology.replica();
    assertThat(replica.queryString("SELECT @@GLOBAL.gtid_mode")).isEqualTo("ON");
    assertThat(replica.queryString("SELECT @@GLOBAL.enforce_gtid_consistency")).isEqualTo("ON");
    assertThat(replica.queryString("SELECT @@GLOBAL.super_read_only")).isEqualTo("1");
    assertThat(topology.source().queryString("SELECT @@GLOBAL.read_only")).isEqualTo("0");
    assertThat(topology.source().queryString("SELECT @@GLOBAL.log_bin")).isEqualTo("1");
    assertThat(replica.replicationStatus().running()).isTrue();
    assertThat(replica.serverUuid()).isNotEqualTo(topology.source().serverUuid());
  }

  @Test
  void rowWrittenOnSourceIsReadOnReplicaAfterWaitReturnsZero() throws SQLException {
    topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1, 'written')");
    String token = topology.source().gtidExecuted();

    try (Connection c = topology.replica().openConnection(db)) {
      assertThat(waitForExecuted(c, token, 5)).isZero();
      assertThat(readValue(c, 1)).isEqualTo("written");
    }
  }

  @Test
  void waitTimesOutWhileApplierIsPausedAndSucceedsAfterResume() throws SQLException {
    MySqlNode replica = topology.replica();
    replica.pauseApplier();
    try {
      topology.source().execute("INSERT INTO `" + db + "`.t VALUES (2, 'paused')");
      String token = topology.source().gtidExecuted();
      try (Connection c = replica.openConnection(db)) {
        long started = System.nanoTime();
        assertThat(waitForExecuted(c, token, 1)).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(ofMillis(900));
        assertThat(readValue(c, 2)).isNull();

        replica.resumeApplier();
        assertThat(waitForExecuted(c, token, 10)).isZero();
        assertThat(readValue(c, 2)).isEqualTo("paused");
      }
    } finally {
      replica.resumeApplier();
    }
  }

  private static Duration ofMillis(long millis) {
    return Duration.ofMillis(millis);
  }

  static int waitForExecuted(Connection c, String gtids, int seconds) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      ps.setString(1, gtids);
      ps.setInt(2, seconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  static String readValue(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}

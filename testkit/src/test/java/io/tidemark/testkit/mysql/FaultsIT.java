package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.junit.TestkitExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each fault on the shared topology, undone at the end of its test. */
@ExtendWith(TestkitExtension.class)
class FaultsIT {

  private MySqlTopology topology;
  private MySqlNode source;
  private MySqlNode replica;
  private String db;

  @BeforeEach
  void createTable(MySqlTopology topology) {
    this.topology = topology;
    source = topology.source();
    replica = topology.replica();
    db = topology.createDatabase("faults");
    source.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
  }

  @Test
  void stoppedReceiverGetsNoNewTransactionsUntilStarted() {
    replica.stopReceiver();
    try {
      assertThat(replica.replicationStatus().receiverState()).isEqualTo("OFF");
      insert(1);
      String written = source.gtidExecuted();
      assertThat(replica.awaitGtidSet(written, Duration.ofSeconds(1))).isFalse();
      assertThat(subset(written, receivedSet())).isEqualTo("0");
    } finally {
      replica.startReceiver();
    }
    assertThat(replica.awaitGtidSet(source.gtidExecuted(), Duration.ofSeconds(10))).isTrue();
  }

  @Test
  void restoredSnapshotComesBackWithTheSameUuidAndLessThanItHad() {
    String uuid = replica.serverUuid();
    MySqlNode.DataSnapshot snapshot = replica.snapshotWithApplierHeld();
    insert(7);
    String written = source.gtidExecuted();
    assertThat(replica.awaitGtidSet(written, Duration.ofSeconds(10))).isTrue();

    replica.restore(snapshot);
    try {
      assertThat(replica.serverUuid()).isEqualTo(uuid);
      assertThat(subset(written, replica.gtidExecuted())).isEqualTo("0");
      assertThatThrownBy(
              () -> replica.restore(new MySqlNode.DataSnapshot("other", snapshot.data())))
          .isInstanceOf(IllegalArgumentException.class);
    } finally {
      replica.delayApplier(Duration.ZERO);
    }
    assertThat(replica.awaitGtidSet(written, Duration.ofSeconds(30))).isTrue();
  }

  @Test
  void delayedApplierShowsWritesOnlyAfterTheDelay() {
    replica.delayApplier(Duration.ofSeconds(2));
    try {
      insert(2);
      String written = source.gtidExecuted();
      long committed = System.nanoTime();
      assertThat(replica.awaitGtidSet(written, Duration.ofSeconds(1))).isFalse();
      assertThat(replica.awaitGtidSet(written, Duration.ofSeconds(10))).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - committed))
          .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    } finally {
      replica.delayApplier(Duration.ZERO);
    }
    assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
  }

  @Test
  void frozenReplicaAnswersNothingUntilThawed() throws SQLException {
    replica.freeze();
    try {
      String url = replica.jdbcUrl() + "&socketTimeout=500";
      assertThatThrownBy(() -> query(url)).isInstanceOf(SQLException.class);
    } finally {
      replica.thaw();
    }
    assertThat(query(replica.jdbcUrl())).isTrue();
    assertThat(replica.awaitGtidSet(source.gtidExecuted(), Duration.ofSeconds(10))).isTrue();
  }

  @Test
  void killedReplicaRestartsAndCatchesUp() {
    replica.kill();
    assertThat(replica.isRunning()).isFalse();
    assertThatThrownBy(replica::serverUuid).isInstanceOf(TestkitException.class);
    insert(3);
    replica.restart();
    assertThat(replica.awaitGtidSet(source.gtidExecuted(), Duration.ofSeconds(20))).isTrue();
    assertThat(replica.queryString("SELECT v FROM `" + db + "`.t WHERE id = 3")).isEqualTo("v3");
    assertThat(replica.queryString("SELECT @@GLOBAL.super_read_only")).isEqualTo("1");
  }

  private void insert(int id) {
    source.execute("INSERT INTO `" + db + "`.t VALUES (" + id + ", 'v" + id + "')");
  }

  private String receivedSet() {
    String value =
        replica.queryString(
            "SELECT RECEIVED_TRANSACTION_SET FROM performance_schema.replication_connection_status");
    return value == null ? "" : value.replace("\n", "");
  }

  private String subset(String subset, String superset) {
    return source.queryString("SELECT GTID_SUBSET('" + subset + "', '" + superset + "')");
  }

  private boolean query(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, replica.user(), replica.password())) {
      return c.createStatement().executeQuery("SELECT 1").next();
    }
  }
}

package io.tidemark.testkit.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A MariaDB source and two replicas as local processes: replication by GTID with the positions
 * MariaDB writes ({@code domain-server-sequence}), the bounded wait {@code MASTER_GTID_WAIT}, and
 * the applier and receiver faults.
 */
class MariaDbTopologyIT {

  private static MariaDbTopology topology;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(2).start();
  }

  @AfterAll
  static void stop() {
    topology.close();
  }

  @Test
  void everyServerRunsTheBinariesVersionWithStrictGtidsAndTheReplicasReadOnly() {
    for (MariaDbNode node : topology.nodes()) {
      assertThat(node.version()).startsWith(topology.binaries().series() + ".");
      assertThat(node.queryString("SELECT @@GLOBAL.gtid_strict_mode")).isEqualTo("1");
    }
    assertThat(topology.source().queryString("SELECT @@GLOBAL.read_only")).isEqualTo("0");
    for (MariaDbNode replica : topology.replicas()) {
      assertThat(replica.queryString("SELECT @@GLOBAL.read_only")).isEqualTo("1");
      assertThat(replica.replicating()).isTrue();
    }
  }

  @Test
  void aWriteOnTheSourceReachesEveryReplicaAtTheSourcesPosition() {
    String db = topology.createDatabase("reach");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1)");
    String position = topology.source().gtidBinlogPos();

    assertThat(position).matches("0-1-\\d+");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    for (MariaDbNode replica : topology.replicas()) {
      assertThat(replica.gtidCurrentPos()).isEqualTo(position);
      assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
    }
  }

  @Test
  void aPausedApplierHoldsAWriteBackUntilItResumesAndTheWaitSaysSo() {
    String db = topology.createDatabase("paused");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    MariaDbNode replica = topology.replica();
    replica.pauseApplier();
    try {
      topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1)");
      String position = topology.source().gtidBinlogPos();

      assertThat(replica.awaitGtid(position, Duration.ofMillis(300))).isFalse();
      assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("0");
    } finally {
      replica.resumeApplier();
    }
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
    assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
  }

  @Test
  void aStoppedReceiverGetsNothingNewUntilItStartsAgain() {
    String db = topology.createDatabase("receiver");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    MariaDbNode replica = topology.replicas().get(1);
    replica.stopReceiver();
    try {
      topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1)");

      assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofMillis(300)))
          .isFalse();
    } finally {
      replica.startReceiver();
    }
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
  }

  @Test
  void aKilledReplicaRestartsReadOnlyAndCatchesUp() {
    String db = topology.createDatabase("restart");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    MariaDbNode replica = topology.replica();
    replica.kill();
    assertThat(replica.isRunning()).isFalse();
    topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1)");

    replica.restart();

    assertThat(replica.queryString("SELECT @@GLOBAL.read_only")).isEqualTo("1");
    replica.execute("START SLAVE");
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
    assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
  }
}

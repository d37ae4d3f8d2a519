package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.mysql.MySqlNode.Role;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Failover and errant transactions change a topology for good, so each test builds its own. */
class FailoverIT {

  @Test
  void promotedReplicaTakesWritesAndTheOtherReplicaFollowsIt() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      MySqlNode oldSource = topology.source();
      MySqlNode replica1 = topology.replicas().get(0);
      MySqlNode replica2 = topology.replicas().get(1);
      oldSource.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT PRIMARY KEY)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));

      topology.promote(replica1, FormerSource.READ_ONLY);

      assertThat(topology.source()).isSameAs(replica1);
      assertThat(topology.replicas()).containsExactly(replica2);
      assertThat(oldSource.role()).isEqualTo(Role.FORMER_SOURCE);
      assertThat(oldSource.queryString("SELECT @@GLOBAL.super_read_only")).isEqualTo("1");
      assertThatThrownBy(() -> oldSource.execute("INSERT INTO shop.t VALUES (1)"))
          .hasMessageContaining("super-read-only");
      assertThat(replica1.queryString("SELECT @@GLOBAL.read_only")).isEqualTo("0");

      replica1.execute("INSERT INTO shop.t VALUES (2)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      assertThat(replica2.queryString("SELECT COUNT(*) FROM shop.t WHERE id = 2")).isEqualTo("1");
      assertThat(replica2.gtidExecuted()).contains(replica1.serverUuid());
    }
  }

  @Test
  void failoverToALaggingReplicaLosesTheWritesItHadNotReceived() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      MySqlNode oldSource = topology.source();
      MySqlNode replica1 = topology.replicas().get(0);
      oldSource.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT PRIMARY KEY)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      replica1.stopReceiver();
      oldSource.execute("INSERT INTO shop.t VALUES (1)");
      String acknowledged = oldSource.gtidExecuted();

      topology.promote(replica1, FormerSource.KILLED);

      assertThat(oldSource.isRunning()).isFalse();
      assertThat(
              replica1.queryString(
                  "SELECT GTID_SUBSET('" + acknowledged + "', @@GLOBAL.gtid_executed)"))
          .isEqualTo("0");
      assertThat(replica1.queryString("SELECT COUNT(*) FROM shop.t")).isEqualTo("0");
      replica1.execute("INSERT INTO shop.t VALUES (2)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    }
  }

  @Test
  void statementRunDirectlyOnReplicaIsAnErrantGtid() {
    try (MySqlTopology topology = MySqlTopology.builder().start()) {
      MySqlNode source = topology.source();
      MySqlNode replica = topology.replica();
      source.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT PRIMARY KEY)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      String replicaUuid = replica.serverUuid();

      replica.executeErrant("INSERT INTO shop.t VALUES (1)");

      String replicaSet = replica.gtidExecuted();
      assertThat(replicaSet).contains(replicaUuid);
      assertThat(source.gtidExecuted()).doesNotContain(replicaUuid);
      assertThat(
              source.queryString(
                  "SELECT GTID_SUBSET('" + replicaSet + "', @@GLOBAL.gtid_executed)"))
          .isEqualTo("0");
      assertThat(replica.queryString("SELECT @@GLOBAL.super_read_only")).isEqualTo("1");
      assertThat(replica.replicationStatus().running()).isTrue();
    }
  }
}

package io.tidemark.topology;

import static io.tidemark.topology.Conditions.assertCaughtUpReplicasAreRead;
import static io.tidemark.topology.Conditions.assertReadsPassOverTheLaggingReplica;
import static io.tidemark.topology.Conditions.probedAlone;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.Closing;
import io.tidemark.Reason;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.topology.NodeState.Availability;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Roles, lag and health of a MariaDB source and two replicas as the servers report them to a probe
 * whose user has only the grant Tidemark documents ({@code SLAVE MONITOR}), through MariaDB
 * Connector/J, and through MySQL Connector/J, whose {@code jdbc:mysql:} URL does not tell MariaDB.
 */
class MariaDbTopologyViewIT {

  private static final String PROBE = "tidemark_probe";
  private static MariaDbTopology topology;
  private static MariaDbNode source;
  private static MariaDbNode replica1;
  private static MariaDbNode replica2;
  private static TopologyView view;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(2).start();
    source = topology.source();
    replica1 = topology.replicas().get(0);
    replica2 = topology.replicas().get(1);
    source.execute(
        "CREATE DATABASE app",
        "CREATE TABLE app.t (id INT PRIMARY KEY)",
        "CREATE USER '" + PROBE + "'@'127.0.0.1' IDENTIFIED BY 'probe'",
        "GRANT SLAVE MONITOR ON *.* TO '" + PROBE + "'@'127.0.0.1'",
        "CREATE USER 'bare'@'127.0.0.1' IDENTIFIED BY 'bare'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    view =
        TopologyView.builder(topology.nodes().stream().map(n -> config(n, false)).toList()).build();
    view.start();
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(view, topology);
  }

  @Test
  void rolesComeFromTheServersAndCaughtUpReplicasAreRead() {
    source.execute("INSERT INTO app.t VALUES (1)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));

    TopologySnapshot snapshot =
        assertCaughtUpReplicasAreRead(view, source.name(), replica1.name(), replica2.name());
    NodeState sourceState = snapshot.node(source.name()).orElseThrow();
    assertThat(sourceState.replica()).isFalse();
    for (MariaDbNode replica : List.of(replica1, replica2)) {
      NodeState state = snapshot.node(replica.name()).orElseThrow();
      assertThat(state.replicatesFrom()).isEqualTo(sourceState.serverUuid());
      assertThat(state.gtidExecuted()).isEqualTo(sourceState.gtidExecuted());
    }
  }

  @Test
  void aReplicaWithItsApplierStoppedIsNotReplicatingAndFallsBehindWhileTheSourceWrites() {
    replica1.pauseApplier();
    try {
      source.execute("INSERT INTO app.t VALUES (2)");
      assertReadsPassOverTheLaggingReplica(view, source.name(), replica1.name(), replica2.name());
    } finally {
      replica1.resumeApplier();
    }
  }

  /** Without strict mode a domain's sequence numbers may go back: its positions tell nothing. */
  @Test
  void aReplicaWithoutGtidStrictModeIsNotRead() {
    replica2.execute("SET GLOBAL gtid_strict_mode = OFF");
    try {
      NodeState state = view.refreshNow().join().node(replica2.name()).orElseThrow();

      assertThat(state.available()).isTrue();
      assertThat(state.gtidModeOn()).isFalse();
      assertThat(state.readable()).isFalse();
    } finally {
      replica2.execute("SET GLOBAL gtid_strict_mode = ON");
    }
  }

  @Test
  void aUserWithoutSlaveMonitorGetsTheStatementThatGrantsIt() {
    NodeState state =
        probedAlone(new NodeConfig(replica2.name(), url(replica2, false), "bare", "bare"));

    assertThat(state.availability()).isEqualTo(Availability.PRIVILEGES_MISSING);
    assertThat(state.grants()).containsExactly("GRANT SLAVE MONITOR ON *.* TO 'bare'@'127.0.0.1';");
  }

  @Test
  void aJdbcMysqlUrlNamingAMariaDbServerIsProbedAsMariaDb() {
    try (TopologyView probes =
        TopologyView.builder(topology.nodes().stream().map(n -> config(n, true)).toList())
            .build()) {
      TopologySnapshot snapshot = probes.refreshNow().join();

      assertThat(snapshot.writable()).extracting(NodeState::name).containsExactly(source.name());
      assertThat(snapshot.node(replica2.name()).orElseThrow().readable()).isTrue();
    }
  }

  @Test
  void aWrongPasswordIsAuthFailed() {
    try (TopologyView probes =
        TopologyView.builder(
                List.of(new NodeConfig("wrong", url(source, false), PROBE, "not the password")))
            .build()) {
      NodeState state = probes.refreshNow().join().node("wrong").orElseThrow();

      assertThat(state.availability()).isEqualTo(Availability.AUTH_FAILED);
      NodeSelector.Choice writer = new NodeSelector(probes, Duration.ofSeconds(1)).writer();
      assertThat(writer.reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);
    }
  }

  private static NodeConfig config(MariaDbNode node, boolean connectorJ) {
    return new NodeConfig(node.name(), url(node, connectorJ), PROBE, "probe");
  }

  private static String url(MariaDbNode node, boolean connectorJ) {
    return connectorJ ? node.jdbcUrl() : "jdbc:mariadb://" + node.host() + ":" + node.port() + "/";
  }
}

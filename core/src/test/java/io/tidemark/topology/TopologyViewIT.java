package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.topology.NodeState.Availability;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Roles, lag and health as the servers report them, on 1 source and 2 replicas. */
class TopologyViewIT {

  private static MySqlTopology topology;
  private static MySqlNode source;
  private static MySqlNode replica1;
  private static MySqlNode replica2;
  private static TopologyView view;

  @BeforeAll
  static void start() {
    topology = MySqlTopology.builder().replicas(2).start();
    source = topology.source();
    replica1 = topology.replicas().get(0);
    replica2 = topology.replicas().get(1);
    source.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    view = TopologyView.builder(nodes(source, replica1, replica2)).build();
    view.start();
  }

  @AfterAll
  static void stop() {
    view.close();
    topology.close();
  }

  @Test
  void rolesComeFromTheServersAndReadsTakeTurnsOnCaughtUpReplicas() {
    source.execute("INSERT INTO shop.t VALUES (1)");
    GtidSet required = GtidSet.parse(source.gtidExecuted());
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    TopologySnapshot snapshot = view.refreshNow().join();

    assertThat(snapshot.writable()).extracting(NodeState::name).containsExactly("source");
    assertThat(snapshot.node("replica1").orElseThrow().readable()).isTrue();
    assertThat(snapshot.node("replica2").orElseThrow().lag()).isZero();
    assertThat(snapshot.node("source").orElseThrow().serverUuid()).isEqualTo(source.serverUuid());
    NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(1));
    assertThat(selector.writer().node().name()).isEqualTo("source");
    Set<String> chosen = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      NodeSelector.Choice choice = selector.replicaFor(required);
      assertThat(choice.reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
      chosen.add(choice.node().name());
    }
    assertThat(chosen).containsExactlyInAnyOrder("replica1", "replica2");
  }

  @Test
  void aReplicaLeftWritableIsNoSecondSource() {
    // As a replica restarted without a persisted read_only: writable, still receiving.
    replica2.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");
    try {
      TopologySnapshot snapshot = view.refreshNow().join();

      NodeState left = snapshot.node("replica2").orElseThrow();
      assertThat(left.writable()).isTrue();
      assertThat(left.replicatesFrom()).isEqualTo(source.serverUuid());
      assertThat(snapshot.writable()).extracting(NodeState::name).containsExactly("source");
      assertThat(snapshot.writableReplicas())
          .extracting(NodeState::name)
          .containsExactly("replica2");
      NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(1));
      assertThat(selector.writer().node().name()).isEqualTo("source");
      assertThat(selector.replicaFor(GtidSet.EMPTY).node().name())
          .as("not read from either")
          .isEqualTo("replica1");

      // Its receiver stopped, it could take writes the source lacks: two sources.
      replica2.stopReceiver();
      try {
        awaitState(n -> n.name().equals("replica2") && n.replicatesFrom() == null);
        NodeSelector.Choice writer = selector.writer();
        assertThat(writer.reason()).isEqualTo(Reason.SPLIT_BRAIN);
      } finally {
        replica2.startReceiver();
      }
    } finally {
      replica2.execute("SET GLOBAL read_only = ON", "SET GLOBAL super_read_only = ON");
      awaitState(n -> n.name().equals("replica2") && !n.writable() && n.replicating());
    }
  }

  @Test
  void aReplicaLeftWritableIsNoSourceWhileItsSourceIsDown() {
    String sourceUuid = source.serverUuid();
    replica2.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");
    source.kill();
    try {
      // Its receiver keeps trying the source: still a replica, so writing to it would make
      // transactions the source never had.
      awaitState(n -> n.name().equals("source") && !n.available());
      TopologySnapshot snapshot = view.refreshNow().join();
      assertThat(snapshot.node("replica2").orElseThrow().replicatesFrom()).isEqualTo(sourceUuid);
      assertThat(snapshot.writable()).isEmpty();
      assertThat(snapshot.writableReplicas())
          .extracting(NodeState::name)
          .containsExactly("replica2");
      NodeSelector.Choice writer = new NodeSelector(view, Duration.ofSeconds(1)).writer();
      assertThat(writer.node()).as(writer.detail()).isNull();
      assertThat(writer.reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);
    } finally {
      source.restart();
      replica2.execute("SET GLOBAL read_only = ON", "SET GLOBAL super_read_only = ON");
      awaitState(n -> n.name().equals("replica2") && !n.writable() && n.replicating());
      awaitState(n -> n.name().equals("replica1") && n.replicating());
    }
  }

  @Test
  void replicaBehindTheThresholdIsSkippedAndBothBehindIsReported() {
    NodeSelector selector = new NodeSelector(view, Duration.ofMillis(500));
    replica1.pauseApplier();
    try {
      source.execute("INSERT INTO shop.t VALUES (2)");
      awaitState(n -> n.name().equals("replica1") && n.lag().toMillis() > 500);
      for (int i = 0; i < 4; i++) {
        assertThat(selector.replicaFor(GtidSet.EMPTY).node().name()).isEqualTo("replica2");
      }
      replica2.pauseApplier();
      source.execute("INSERT INTO shop.t VALUES (3)");
      awaitState(n -> n.name().equals("replica2") && n.lag().toMillis() > 500);

      assertThat(selector.replicaFor(GtidSet.EMPTY).reason())
          .isEqualTo(Reason.REPLICA_LAG_EXCEEDED);
    } finally {
      replica1.resumeApplier();
      replica2.resumeApplier();
    }
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    awaitState(n -> n.name().equals("replica2") && n.lag().isZero());
  }

  @Test
  void frozenReplicaTimesOutItsProbeWithoutStallingTheView() {
    String uuid = replica2.serverUuid();
    replica2.freeze();
    try {
      long started = System.nanoTime();
      TopologySnapshot refreshed = view.refreshNow().orTimeout(5, TimeUnit.SECONDS).join();
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isLessThan(TopologyView.DEFAULT_PROBE_READ_TIMEOUT.plusMillis(500));
      assertThat(refreshed.node("replica2").orElseThrow().availability())
          .isEqualTo(Availability.UNREACHABLE);
      assertThat(view.nameOf(uuid))
          .as("a frozen replica is still named, by its last probe that answered")
          .contains("replica2");

      long snapshotStarted = System.nanoTime();
      view.snapshot();
      assertThat(Duration.ofNanos(System.nanoTime() - snapshotStarted))
          .isLessThan(Duration.ofMillis(50));
      NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5));
      for (int i = 0; i < 4; i++) {
        assertThat(selector.replicaFor(GtidSet.EMPTY).node().name()).isEqualTo("replica1");
      }
    } finally {
      replica2.thaw();
    }
    awaitState(n -> n.name().equals("replica2") && n.available());
  }

  @Test
  void wrongPasswordIsReportedAsAuthFailedNotSkippedAsHealthy() {
    List<NodeConfig> nodes =
        List.of(
            config(source),
            new NodeConfig("replica1", replica1.jdbcUrl(), replica1.user(), "wrong"),
            config(replica2));
    try (TopologyView wrong = TopologyView.builder(nodes).build()) {
      TopologySnapshot snapshot = wrong.start();

      NodeState refused = snapshot.node("replica1").orElseThrow();
      assertThat(refused.availability()).isEqualTo(Availability.AUTH_FAILED);
      assertThat(refused.detail()).contains("Access denied");
      assertThat(refused.readable()).isFalse();
      assertThat(snapshot.node("replica2").orElseThrow().readable()).isTrue();
    }
  }

  /**
   * The server fact behind it, on every version tested: a user granted data only may read the
   * global variables but not performance_schema's replication tables (error 1142).
   */
  @Test
  void aUserGrantedDataOnlyIsReportedWithTheGrantsItLacks() {
    source.execute(
        "CREATE USER 'data_only'@'%' IDENTIFIED BY 'data-only'",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'data_only'@'%'",
        "GRANT SELECT ON performance_schema.replication_applier_status TO 'data_only'@'%'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    List<NodeConfig> nodes =
        List.of(new NodeConfig("replica1", replica1.jdbcUrl(), "data_only", "data-only"));
    try (TopologyView lacking = TopologyView.builder(nodes).build()) {
      NodeState state = lacking.start().node("replica1").orElseThrow();

      assertThat(state.availability())
          .as(state.toString())
          .isEqualTo(Availability.PRIVILEGES_MISSING);
      assertThat(state.readable()).isFalse();
      assertThat(state.detail()).contains("'data_only'@'%'").contains("command denied");
      assertThat(state.grants())
          .containsExactly(
              "GRANT SELECT ON performance_schema.replication_connection_status TO"
                  + " 'data_only'@'%';",
              "GRANT SELECT ON performance_schema.replication_applier_status_by_worker TO"
                  + " 'data_only'@'%';");
    } finally {
      source.execute("DROP USER 'data_only'@'%'");
    }
  }

  @Test
  void probesCostLittle() {
    int rounds = 50;
    long started = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      view.refreshNow().join();
    }
    long perProbeMicros = (System.nanoTime() - started) / 1000 / rounds;
    System.out.printf(
        "figures: one refresh of 3 nodes (probes in parallel) takes %d us on average;"
            + " at the default 1 s interval that is the probe cost per node per second%n",
        perProbeMicros);
    assertThat(view.snapshot().nodes()).allMatch(NodeState::available);
  }

  private static void awaitState(Predicate<NodeState> condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      if (view.refreshNow().join().nodes().stream().anyMatch(condition)) {
        return;
      }
    }
    throw new AssertionError("state not reached within 15 s: " + view.snapshot());
  }

  static List<NodeConfig> nodes(MySqlNode... nodes) {
    return Arrays.stream(nodes).map(TopologyViewIT::config).toList();
  }

  static NodeConfig config(MySqlNode node) {
    return new NodeConfig(node.name(), node.jdbcUrl(), node.user(), node.password());
  }
}

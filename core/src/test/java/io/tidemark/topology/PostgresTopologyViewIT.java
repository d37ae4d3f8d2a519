package io.tidemark.topology;

import static io.tidemark.topology.Conditions.assertCaughtUpReplicasAreRead;
import static io.tidemark.topology.Conditions.assertReadsPassOverTheLaggingReplica;
import static io.tidemark.topology.Conditions.assertSplitBrain;
import static io.tidemark.topology.Conditions.awaitTrue;
import static io.tidemark.topology.Conditions.probedAlone;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.Closing;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.topology.NodeState.Availability;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Roles, lag and health of a PostgreSQL primary and two hot standbys as the servers report them,
 * then a failover (last): the view's next writer is the promoted standby within a refresh interval
 * or two, where PgJDBC's {@code targetServerType} trusts a role it read up to {@code
 * hostRecheckSeconds} (10 s) before.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresTopologyViewIT {

  private static PostgresTopology topology;
  private static PostgresNode primary;
  private static PostgresNode standby1;
  private static PostgresNode standby2;
  private static TopologyView view;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(2).start();
    primary = topology.primary();
    standby1 = topology.standbys().get(0);
    standby2 = topology.standbys().get(1);
    primary.execute("CREATE TABLE t (id int PRIMARY KEY)");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    view =
        TopologyView.builder(topology.nodes().stream().map(PostgresTopologyViewIT::config).toList())
            .build();
    view.start();
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(view, topology);
  }

  @Test
  @Order(1)
  void rolesComeFromTheServersAndCaughtUpStandbysAreRead() {
    primary.execute("INSERT INTO t VALUES (1)");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));

    TopologySnapshot snapshot =
        assertCaughtUpReplicasAreRead(view, primary.name(), standby1.name(), standby2.name());
    for (PostgresNode standby : List.of(standby1, standby2)) {
      assertThat(snapshot.node(standby.name()).orElseThrow().serverUuid())
          .contains(":" + standby.port() + "@");
    }
  }

  @Test
  @Order(2)
  void aStandbyWithReplayPausedIsNotReplicatingAndFallsBehindWhileThePrimaryWrites() {
    standby1.pauseReplay();
    try {
      primary.execute("INSERT INTO t VALUES (2)");
      assertReadsPassOverTheLaggingReplica(view, primary.name(), standby1.name(), standby2.name());
    } finally {
      standby1.resumeReplay();
    }
  }

  @Test
  @Order(3)
  void aRoleThatCannotLogInIsAuthFailedAndADeadPortUnreachableWithinTheConnectTimeout() {
    NodeConfig wrongUser =
        new NodeConfig("wrong-user", primary.jdbcUrl(), "no_such_role", "secret");
    NodeConfig deadPort =
        new NodeConfig("dead-port", "jdbc:postgresql://127.0.0.1:1/postgres", "postgres", "");
    try (TopologyView probes =
        TopologyView.builder(List.of(wrongUser, deadPort))
            .probeTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1))
            .build()) {
      long begun = System.nanoTime();
      TopologySnapshot snapshot = probes.refreshNow().join();

      assertThat(snapshot.node("wrong-user").orElseThrow().availability())
          .isEqualTo(Availability.AUTH_FAILED);
      assertThat(snapshot.node("wrong-user").orElseThrow().detail()).contains("no_such_role");
      assertThat(snapshot.node("dead-port").orElseThrow().availability())
          .isEqualTo(Availability.UNREACHABLE);
      assertThat(System.nanoTime() - begun).isLessThan(TimeUnit.SECONDS.toNanos(3));
      NodeSelector.Choice writer = new NodeSelector(probes, Duration.ofSeconds(1)).writer();
      assertThat(writer.chosen()).isFalse();
      assertThat(writer.reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);
    }
  }

  @Test
  @Order(3)
  void aRoleWithoutTheGrantsTidemarkNeedsGetsTheStatementsThatGrantThem() {
    primary.execute("CREATE ROLE bare LOGIN");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    NodeState state = probedAlone(new NodeConfig(standby2.name(), standby2.jdbcUrl(), "bare", ""));

    assertThat(state.available()).isTrue();
    assertThat(state.detail())
        .contains("WAL receiver is hidden from this role")
        .contains("cannot read timeline histories in database postgres");
    assertThat(state.grants())
        .containsExactly(
            "GRANT pg_monitor TO bare;", "GRANT EXECUTE ON FUNCTION pg_read_file(text) TO bare;");
    assertThat(state.gtidExecuted().isEmpty()).isTrue();
  }

  @Test
  @Order(4)
  void afterAFailoverTheNextWriterIsThePromotedStandbyAndTheOtherFollowsIt() {
    NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5));
    // The other standby stops receiving first, so that it holds no WAL the promoted one lacks and
    // can follow it; promoting points it at the new primary.
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    standby2.stopReceiver();
    awaitTrue(() -> "0".equals(standby2.queryString("SELECT count(*) FROM pg_stat_wal_receiver")));
    topology.promote(standby1);
    long promotedAt = System.nanoTime();
    awaitTrue(
        () -> {
          NodeSelector.Choice writer = selector.writer();
          return writer.chosen() && writer.node().name().equals(standby1.name());
        });
    System.out.printf(
        "figures: PostgreSQL failover to the first choice of the new primary: %d ms (refresh"
            + " interval %d ms)%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promotedAt),
        TopologyView.DEFAULT_REFRESH_INTERVAL.toMillis());

    assertThat(view.snapshot().node(primary.name()).orElseThrow().availability())
        .isEqualTo(Availability.UNREACHABLE);
    awaitTrue(() -> view.snapshot().node(standby2.name()).orElseThrow().readable());
    standby1.execute("INSERT INTO t VALUES (3)");
    GtidSet written = view.refreshNow().join().node(standby1.name()).orElseThrow().gtidExecuted();
    awaitTrue(
        () ->
            view.refreshNow()
                .join()
                .node(standby2.name())
                .orElseThrow()
                .gtidExecuted()
                .containsAll(written));
    assertThat(selector.replicaFor(written).node().name()).isEqualTo(standby2.name());
  }

  @Test
  @Order(5)
  void theFormerPrimaryRestartedWritableIsRefusedAsSplitBrain() {
    primary.restart();
    view.refreshNow().join();

    assertSplitBrain(
        new NodeSelector(view, Duration.ofSeconds(5)), primary.name(), standby1.name());
  }

  private static NodeConfig config(PostgresNode node) {
    return new NodeConfig(node.name(), node.jdbcUrl(), node.user(), node.password());
  }
}

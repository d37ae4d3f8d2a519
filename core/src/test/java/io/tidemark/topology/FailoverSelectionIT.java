package io.tidemark.topology;

import static io.tidemark.topology.Conditions.assertSplitBrain;
import static io.tidemark.topology.Conditions.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import io.tidemark.topology.NodeState.Availability;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Role changes seen through a running view, with no configuration change; a topology per test. */
class FailoverSelectionIT {

  @Test
  void nextChoiceAfterAFailoverWithTheOldSourceKilledIsTheNewSource() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      MySqlNode promoted = topology.replicas().get(0);
      try (TopologyView view = viewOf(topology)) {
        NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5));
        assertThat(selector.writer().node().name()).isEqualTo("source");

        topology.promote(promoted, FormerSource.KILLED);
        long promotedAt = System.nanoTime();
        awaitTrue(
            () -> {
              NodeSelector.Choice writer = selector.writer();
              return writer.chosen() && writer.node().name().equals("replica1");
            });
        System.out.printf(
            "figures: failover to first choice of the new source: %d ms (refresh interval %d ms)%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promotedAt),
            TopologyView.DEFAULT_REFRESH_INTERVAL.toMillis());

        TopologySnapshot snapshot = view.snapshot();
        assertThat(snapshot.node("source").orElseThrow().availability())
            .isEqualTo(Availability.UNREACHABLE);
        awaitTrue(() -> view.snapshot().node("replica2").orElseThrow().readable());
        assertThat(selector.replicaFor(GtidSet.EMPTY).node().name()).isEqualTo("replica2");
      }
    }
  }

  @Test
  void oldSourceLeftReadOnlyIsNoLongerWrittenAndTwoWritableNodesAreRefused() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      MySqlNode oldSource = topology.source();
      MySqlNode promoted = topology.replicas().get(0);
      try (TopologyView view = viewOf(topology)) {
        NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5));

        topology.promote(promoted, FormerSource.READ_ONLY);
        TopologySnapshot after = view.refreshNow().join();

        assertThat(after.writable()).extracting(NodeState::name).containsExactly("replica1");
        assertThat(after.node("source").orElseThrow().available()).isTrue();
        assertThat(after.node("source").orElseThrow().readable())
            .as("a former source replicating from no one serves no reads")
            .isFalse();
        assertThat(selector.writer().node().name()).isEqualTo("replica1");

        oldSource.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");
        view.refreshNow().join();

        assertSplitBrain(selector, "source", "replica1");
      }
    }
  }

  @Test
  void replicaWithAnErrantGtidIsFlaggedAndNotRead() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      MySqlNode errant = topology.replicas().get(1);
      topology.source().execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      try (TopologyView view = viewOf(topology)) {
        errant.executeErrant("INSERT INTO shop.t VALUES (1)");

        NodeState flagged = view.refreshNow().join().node("replica2").orElseThrow();

        assertThat(flagged.errant().isEmpty()).isFalse();
        assertThat(flagged.errant().uuids())
            .extracting(Object::toString)
            .containsExactly(errant.serverUuid());
        assertThat(flagged.readable()).isFalse();
        NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5));
        for (int i = 0; i < 4; i++) {
          assertThat(selector.replicaFor(GtidSet.EMPTY).node().name()).isEqualTo("replica1");
        }
      }
    }
  }

  private static TopologyView viewOf(MySqlTopology topology) {
    TopologyView view =
        TopologyView.builder(topology.nodes().stream().map(TopologyViewIT::config).toList())
            .build();
    view.start();
    return view;
  }
}

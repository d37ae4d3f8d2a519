package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A probe whose answer cannot be read (here a replica whose {@code gtid_executed} names more source
 * UUIDs than Tidemark reads) reports the node unusable and goes on probing, instead of stopping for
 * good with the node's last state frozen.
 */
class ProbeFailureIT {

  @Test
  void aProbeAnswerThatCannotBeReadMarksTheNodeUnreachableAndProbingGoesOn() {
    try (MySqlTopology topology = MySqlTopology.builder().replicas(1).start();
        TopologyView view =
            TopologyView.builder(TopologyViewIT.nodes(topology.source(), topology.replica()))
                .refreshInterval(Duration.ofMillis(200))
                .build()) {
      view.start();
      MySqlNode replica = topology.replica();
      assertThat(view.snapshot().node("replica1").orElseThrow().readable()).isTrue();

      StringJoiner foreign = new StringJoiner(",");
      for (int i = 0; i < 2_049; i++) {
        foreign.add(UUID.randomUUID() + ":1");
      }
      replica.executeErrant("SET GLOBAL gtid_purged = '+" + foreign + "'");

      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (view.snapshot().node("replica1").orElseThrow().availability()
              != NodeState.Availability.UNREACHABLE
          && System.nanoTime() < deadline) {
        LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
      }
      assertThat(view.snapshot().node("replica1").orElseThrow().availability())
          .as("the node is reported, not left as last seen")
          .isEqualTo(NodeState.Availability.UNREACHABLE);
      assertThat(view.snapshot().node("replica1").orElseThrow().detail()).contains("UUIDs");
      assertThat(view.snapshot().node("source").orElseThrow().writable()).isTrue();
    }
  }
}

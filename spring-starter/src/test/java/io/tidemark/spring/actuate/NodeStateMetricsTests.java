package io.tidemark.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class NodeStateMetricsTests {

  private final AtomicReference<TopologySnapshot> topology =
      new AtomicReference<>(
          new TopologySnapshot(
              List.of(
                  TestNodes.source("source", TestNodes.SOURCE_UUID),
                  TestNodes.replica("replica-1", TestNodes.REPLICA_UUID, Duration.ofMillis(40)))));
  private final AtomicReference<CapturingDataSource.Stats> captures =
      new AtomicReference<>(new CapturingDataSource.Stats(0, 0, 0, 0));
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  NodeStateMetricsTests() {
    new NodeStateMetrics(topology::get, captures::get).bindTo(registry);
  }

  @Test
  void readsCaptureCountsWhenScraped() {
    captures.set(new CapturingDataSource.Stats(7, 2, 1, 3));

    assertThat(
            registry
                .get(NodeStateMetrics.CAPTURES)
                .tag("method", "session-tracking")
                .functionCounter()
                .count())
        .isEqualTo(7);
    assertThat(
            registry
                .get(NodeStateMetrics.CAPTURES)
                .tag("method", "query")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(registry.get(NodeStateMetrics.CAPTURE_FAILURES).functionCounter().count())
        .isEqualTo(1);
    assertThat(registry.get(NodeStateMetrics.UNSCOPED).functionCounter().count()).isEqualTo(3);
  }

  @Test
  void followsEachNodesLagAndAvailability() {
    assertThat(
            registry
                .get(NodeStateMetrics.LAG)
                .tag("node", "replica-1")
                .timeGauge()
                .value(TimeUnit.MILLISECONDS))
        .isEqualTo(40);
    assertThat(registry.get(NodeStateMetrics.AVAILABLE).tag("node", "replica-1").gauge().value())
        .isEqualTo(1);

    topology.set(
        new TopologySnapshot(
            List.of(
                TestNodes.source("source", TestNodes.SOURCE_UUID),
                TestNodes.failed(
                    "replica-1", NodeState.Availability.UNREACHABLE, "connect timed out"))));

    assertThat(registry.get(NodeStateMetrics.AVAILABLE).tag("node", "replica-1").gauge().value())
        .isEqualTo(0);
    assertThat(registry.get(NodeStateMetrics.AVAILABLE).tag("node", "source").gauge().value())
        .isEqualTo(1);
  }

  @Test
  void flagsAReplicaLeftWritableOrWithErrantGtidsAsMisconfigured() {
    NodeState source = TestNodes.source("source", TestNodes.SOURCE_UUID);
    NodeState replica = TestNodes.replica("replica-1", TestNodes.REPLICA_UUID, Duration.ZERO);
    assertThat(
            registry.get(NodeStateMetrics.MISCONFIGURED).tag("node", "replica-1").gauge().value())
        .isEqualTo(0);

    topology.set(new TopologySnapshot(List.of(source, TestNodes.writable(replica))));
    assertThat(
            registry.get(NodeStateMetrics.MISCONFIGURED).tag("node", "replica-1").gauge().value())
        .isEqualTo(1);
    assertThat(registry.get(NodeStateMetrics.MISCONFIGURED).tag("node", "source").gauge().value())
        .isEqualTo(0);

    topology.set(
        new TopologySnapshot(
            List.of(source, TestNodes.withErrant(replica, TestNodes.REPLICA_UUID + ":1-2"))));
    assertThat(
            registry.get(NodeStateMetrics.MISCONFIGURED).tag("node", "replica-1").gauge().value())
        .isEqualTo(1);
  }
}

package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.TestNodes.REPLICA_UUID;
import static io.tidemark.spring.autoconfigure.TestNodes.SOURCE_UUID;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.ExecutionHistory;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TidemarkEndpointTests {

  private final ExecutionHistory history = new ExecutionHistory(2);
  private final TopologySnapshot topology =
      new TopologySnapshot(
          List.of(
              TestNodes.source("source", SOURCE_UUID),
              TestNodes.replica("replica-1", REPLICA_UUID, Duration.ofMillis(3))));
  private final TidemarkEndpoint endpoint =
      new TidemarkEndpoint(
          () -> topology,
          new NodeNames(topology::nameOf),
          history,
          () -> new CapturingDataSource.Stats(5, 1, 0, 2));

  @Test
  void reportsTheTopologyAsProbed() {
    TidemarkEndpoint.Report report = endpoint.report();

    assertThat(report.nodes())
        .extracting(TidemarkEndpoint.NodeReport::name, TidemarkEndpoint.NodeReport::role)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("source", "source"),
            org.assertj.core.groups.Tuple.tuple("replica-1", "replica"));
    TidemarkEndpoint.NodeReport replica = report.nodes().get(1);
    assertThat(replica.lagMillis()).isEqualTo(3);
    assertThat(replica.readable()).isTrue();
    assertThat(replica.gtidExecuted()).isEqualTo(SOURCE_UUID + ":1-9");
    assertThat(report.capture()).isEqualTo(new CapturingDataSource.Stats(5, 1, 0, 2));
  }

  @Test
  void reportsRecentReadsNewestFirstWithNodeNamesAndCounts() {
    history.accept(
        new ExecutionRecord(
            REPLICA_UUID,
            NodeRole.REPLICA,
            Reason.REPLICA_AFTER_WAIT,
            Duration.ZERO,
            Duration.ofMillis(20),
            Duration.ZERO,
            Duration.ofMillis(25)));
    history.accept(
        new ExecutionRecord(
            SOURCE_UUID,
            NodeRole.SOURCE,
            Reason.SOURCE_FALLBACK,
            Duration.ZERO,
            Duration.ofMillis(200),
            Duration.ZERO,
            Duration.ofMillis(210)));
    history.accept(
        new ExecutionRecord(
            "",
            NodeRole.NONE,
            Reason.TOKEN_REJECTED,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofNanos(1_500_000)));

    TidemarkEndpoint.Report report = endpoint.report();

    assertThat(report.recent())
        .containsExactly(
            new TidemarkEndpoint.ReadReport("none", "", "none", "TOKEN_REJECTED", false, 0, 1.5),
            new TidemarkEndpoint.ReadReport(
                "source", SOURCE_UUID, "source", "SOURCE_FALLBACK", true, 200, 210));
    assertThat(report.counts())
        .containsEntry(REPLICA_UUID + "/REPLICA_AFTER_WAIT", 1L)
        .containsEntry("/TOKEN_REJECTED", 1L);
    assertThat(report.offload())
        .as("served reads only; the refused one counts nowhere")
        .isEqualTo(new TidemarkEndpoint.Offload(2, 0.5, Map.of("SOURCE_FALLBACK", 1L)));
  }
}

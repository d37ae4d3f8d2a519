package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.TestNodes.REPLICA_UUID;
import static io.tidemark.spring.autoconfigure.TestNodes.SOURCE_UUID;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReadMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReadMetrics metrics =
      new ReadMetrics(
          registry,
          new NodeNames(
              () ->
                  new TopologySnapshot(
                      List.of(
                          TestNodes.source("source", SOURCE_UUID),
                          TestNodes.replica("replica-1", REPLICA_UUID, Duration.ZERO)))));

  @Test
  void timesTheWaitByConfiguredNodeNameAndOutcome() {
    metrics.recorded(record(REPLICA_UUID, NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT, 30));
    metrics.recorded(record(REPLICA_UUID, NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT, 50));
    metrics.recorded(record(REPLICA_UUID, NodeRole.REPLICA, Reason.REPLICA_CAUGHT_UP, 0));

    Timer afterWait =
        registry
            .get(ReadMetrics.WAIT)
            .tags("node", "replica-1", "outcome", "REPLICA_AFTER_WAIT")
            .timer();
    assertThat(afterWait.count()).isEqualTo(2);
    assertThat(afterWait.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(80);
    assertThat(
            registry
                .get(ReadMetrics.WAIT)
                .tags("node", "replica-1", "outcome", "REPLICA_CAUGHT_UP")
                .timer()
                .count())
        .isEqualTo(1);
  }

  @Test
  void namesNoNodeAndUnknownUuidsWithoutTaggingTheUuid() {
    metrics.recorded(record("", NodeRole.NONE, Reason.NO_READABLE_REPLICA, 0));
    metrics.recorded(
        record(
            "5a33bc69-93ec-33a3-b055-ea2ccb64b784", NodeRole.REPLICA, Reason.REPLICA_NO_TOKEN, 0));

    assertThat(registry.get(ReadMetrics.WAIT).tag("node", NodeNames.NONE).timer().count())
        .isEqualTo(1);
    assertThat(registry.get(ReadMetrics.WAIT).tag("node", NodeNames.UNKNOWN).timer().count())
        .isEqualTo(1);
  }

  @Test
  void countsFallbacksTimeoutsAndRejectionsApartByReason() {
    metrics.recorded(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_FALLBACK, 200));
    metrics.recorded(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_FALLBACK, 200));
    metrics.recorded(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_BY_POLICY, 0));
    metrics.recorded(record("", NodeRole.NONE, Reason.WAIT_TIMEOUT, 200));
    metrics.recorded(record("", NodeRole.NONE, Reason.BUDGET_EXHAUSTED, 0));
    metrics.recorded(record("", NodeRole.NONE, Reason.SOURCE_FALLBACK_LIMITED, 200));
    metrics.recorded(record("", NodeRole.NONE, Reason.TOKEN_REJECTED, 0));
    metrics.recorded(record(REPLICA_UUID, NodeRole.REPLICA, Reason.REPLICA_CAUGHT_UP, 0));

    assertThat(count(ReadMetrics.FALLBACKS, Reason.SOURCE_FALLBACK)).isEqualTo(2);
    assertThat(count(ReadMetrics.FALLBACKS, Reason.SOURCE_BY_POLICY)).isEqualTo(1);
    assertThat(count(ReadMetrics.TIMEOUTS, Reason.WAIT_TIMEOUT)).isEqualTo(1);
    assertThat(count(ReadMetrics.TIMEOUTS, Reason.BUDGET_EXHAUSTED)).isEqualTo(1);
    assertThat(count(ReadMetrics.REJECTIONS, Reason.SOURCE_FALLBACK_LIMITED)).isEqualTo(1);
    assertThat(count(ReadMetrics.REJECTIONS, Reason.TOKEN_REJECTED)).isEqualTo(1);
    // A timeout is not also a rejection, and a replica read is none of them.
    assertThat(registry.find(ReadMetrics.REJECTIONS).counters()).hasSize(2);
    assertThat(registry.find(ReadMetrics.FALLBACKS).counters()).hasSize(2);
  }

  @Test
  void observingRunsTheReadUnchanged() throws Throwable {
    assertThat(metrics.observe("Orders.find", () -> "row")).isEqualTo("row");
  }

  private double count(String name, Reason reason) {
    return registry.get(name).tag("reason", reason.name()).counter().count();
  }

  private static ExecutionRecord record(String node, NodeRole role, Reason reason, long waitedMs) {
    return new ExecutionRecord(
        node,
        role,
        reason,
        Duration.ZERO,
        Duration.ofMillis(waitedMs),
        Duration.ZERO,
        Duration.ofMillis(waitedMs + 2));
  }
}

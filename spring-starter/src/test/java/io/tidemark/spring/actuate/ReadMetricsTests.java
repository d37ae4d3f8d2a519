package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.TestNodes.REPLICA_UUID;
import static io.tidemark.spring.autoconfigure.TestNodes.SOURCE_UUID;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReadMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReadMetrics metrics = new ReadMetrics(registry);

  @Test
  void countsFallbacksTimeoutsAndRejectionsApartByReason() {
    metrics
        .started("Orders.find")
        .ended(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_FALLBACK, 200), null);
    metrics
        .started("Orders.find")
        .ended(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_FALLBACK, 200), null);
    metrics
        .started("Orders.find")
        .ended(record(SOURCE_UUID, NodeRole.SOURCE, Reason.SOURCE_BY_POLICY, 0), null);
    metrics.started("Orders.find").ended(record("", NodeRole.NONE, Reason.WAIT_TIMEOUT, 200), null);
    metrics
        .started("Orders.find")
        .ended(record("", NodeRole.NONE, Reason.BUDGET_EXHAUSTED, 0), null);
    metrics
        .started("Orders.find")
        .ended(record("", NodeRole.NONE, Reason.SOURCE_FALLBACK_LIMITED, 200), null);
    metrics.started("Orders.find").ended(record("", NodeRole.NONE, Reason.TOKEN_REJECTED, 0), null);
    metrics
        .started("Orders.find")
        .ended(record(REPLICA_UUID, NodeRole.REPLICA, Reason.REPLICA_CAUGHT_UP, 0), null);

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
  void aReadThatEndedWithoutARecordCountsNothing() {
    metrics.started("Orders.find").ended(null, new IllegalStateException("the query's own"));

    assertThat(registry.getMeters()).isEmpty();
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

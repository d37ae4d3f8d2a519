package io.tidemark.spring.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Meters read from Tidemark's state when the registry is scraped: the write capture's counts and
 * each configured node's lag and availability. Registered with this object as the meters' state, so
 * they live as long as the bean does (Micrometer holds function meters' state weakly).
 */
final class NodeStateMetrics implements MeterBinder {

  static final String CAPTURES = "tidemark.capture.commits";
  static final String CAPTURE_FAILURES = "tidemark.capture.failures";
  static final String UNSCOPED = "tidemark.capture.unscoped";
  static final String LAG = "tidemark.node.lag";
  static final String AVAILABLE = "tidemark.node.available";
  static final String MISCONFIGURED = "tidemark.node.misconfigured";

  private final Supplier<TopologySnapshot> topology;
  private final Supplier<CapturingDataSource.Stats> captures;

  NodeStateMetrics(
      Supplier<TopologySnapshot> topology, Supplier<CapturingDataSource.Stats> captures) {
    this.topology = topology;
    this.captures = captures;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(CAPTURES, this, m -> m.captures.get().tracked())
        .description("Commits whose GTIDs were captured")
        .tag("method", "session-tracking")
        .register(registry);
    FunctionCounter.builder(CAPTURES, this, m -> m.captures.get().queried())
        .description("Commits whose GTIDs were captured")
        .tag("method", "query")
        .register(registry);
    FunctionCounter.builder(CAPTURE_FAILURES, this, m -> m.captures.get().failed())
        .description("Commits whose GTIDs could not be captured; each made its context dirty")
        .register(registry);
    FunctionCounter.builder(UNSCOPED, this, m -> m.captures.get().unscoped())
        .description("Connections used with no consistency context, their commits not captured")
        .register(registry);
    // The configured nodes do not change while the application runs.
    for (NodeState node : topology.get().nodes()) {
      String name = node.name();
      TimeGauge.builder(LAG, this, TimeUnit.MILLISECONDS, m -> m.lagMillis(name))
          .description("How far behind the source the node was at its last probe")
          .tag("node", name)
          .register(registry);
      Gauge.builder(AVAILABLE, this, m -> m.available(name))
          .description("Whether the node answered its last probe (1) or not (0)")
          .tag("node", name)
          .register(registry);
      Gauge.builder(MISCONFIGURED, this, m -> m.misconfigured(name))
          .description(
              "Whether the node is a replica left writable or with errant GTIDs (1): its data may"
                  + " change outside replication, so it is not read from")
          .tag("node", name)
          .register(registry);
    }
  }

  private double lagMillis(String name) {
    return topology.get().node(name).map(n -> (double) n.lag().toMillis()).orElse(Double.NaN);
  }

  private double misconfigured(String name) {
    TopologySnapshot snapshot = topology.get();
    return snapshot
        .node(name)
        .map(n -> !n.errant().isEmpty() || snapshot.writableReplicas().contains(n) ? 1.0 : 0.0)
        .orElse(Double.NaN);
  }

  private double available(String name) {
    return topology.get().node(name).map(n -> n.available() ? 1.0 : 0.0).orElse(Double.NaN);
  }
}

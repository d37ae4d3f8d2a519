package io.tidemark.demo;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Reads the nodes' lag from Tidemark's {@value #LAG} gauges (what the topology's probes found) a
 * few times a second into the {@link LiveFeed}: the page shows what an application's metrics would.
 */
final class LagSampler implements AutoCloseable {

  static final String LAG = "tidemark.node.lag";

  private final Repeated sampling;

  private LagSampler(Repeated sampling) {
    this.sampling = sampling;
  }

  static LagSampler start(MeterRegistry registry, LiveFeed feed, Duration every) {
    return new LagSampler(
        Repeated.every(
            every,
            "lag-sampler",
            () -> {
              for (TimeGauge gauge : registry.find(LAG).timeGauges()) {
                String node = gauge.getId().getTag("node");
                if (node != null) {
                  feed.lag(node, gauge.value(TimeUnit.MILLISECONDS));
                }
              }
            }));
  }

  @Override
  public void close() {
    sampling.close();
  }
}

package io.tidemark.spring.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tidemark.ExecutionRecord;
import io.tidemark.Reason;
import io.tidemark.spring.routing.ReadInstrumentation;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * Meters of the reads under {@code @ReadYourWrites}: how long each waited for a replica, by node
 * and outcome, and counters of the reads that fell back to the source, timed out or were refused.
 *
 * <p>Tags stay bounded: {@code node} is a configured node name (see {@link NodeNames}), {@code
 * outcome} and {@code reason} are {@link Reason} codes.
 */
final class ReadMetrics implements ReadInstrumentation {

  static final String WAIT = "tidemark.read.wait";
  static final String FALLBACKS = "tidemark.read.fallbacks";
  static final String TIMEOUTS = "tidemark.read.timeouts";
  static final String REJECTIONS = "tidemark.read.rejections";

  private static final Set<Reason> FALLBACK =
      EnumSet.of(Reason.SOURCE_FALLBACK, Reason.SOURCE_BY_POLICY);
  private static final Set<Reason> TIMEOUT =
      EnumSet.of(Reason.WAIT_TIMEOUT, Reason.BUDGET_EXHAUSTED);

  private final NodeNames names;
  private final Meter.MeterProvider<Timer> wait;
  private final Meter.MeterProvider<Counter> fallbacks;
  private final Meter.MeterProvider<Counter> timeouts;
  private final Meter.MeterProvider<Counter> rejections;

  ReadMetrics(MeterRegistry registry, NodeNames names) {
    this.names = names;
    this.wait =
        Timer.builder(WAIT)
            .description("Time a read waited for a replica to execute its token")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .withRegistry(registry);
    this.fallbacks =
        Counter.builder(FALLBACKS)
            .description("Reads served by the source instead of a replica")
            .withRegistry(registry);
    this.timeouts =
        Counter.builder(TIMEOUTS)
            .description("Reads that failed because no replica caught up within their budget")
            .withRegistry(registry);
    this.rejections =
        Counter.builder(REJECTIONS)
            .description("Reads refused for any reason but a timeout")
            .withRegistry(registry);
  }

  @Override
  public void recorded(ExecutionRecord record) {
    Reason reason = record.reason();
    wait.withTags("node", names.of(record.node()), "outcome", reason.name())
        .record(record.waited());
    if (FALLBACK.contains(reason)) {
      fallbacks.withTags("reason", reason.name()).increment();
    } else if (TIMEOUT.contains(reason)) {
      timeouts.withTags("reason", reason.name()).increment();
    } else if (!reason.served()) {
      rejections.withTags("reason", reason.name()).increment();
    }
  }

  @Override
  public <T> T observe(String method, ObservedRead<T> read) throws Throwable {
    // The meters come from the execution records; ReadObservation times the whole read.
    return read.run();
  }
}

package io.tidemark.spring.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.Reason;
import io.tidemark.jdbc.ReadListener;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Counters of the reads that fell back to the source, timed out or were refused, tagged with the
 * {@link Reason} code, from each read's record. Their times are the {@code tidemark.read} and
 * {@code tidemark.read.wait} observations' timers.
 */
final class ReadMetrics implements ReadListener, ReadListener.Read {

  static final String FALLBACKS = "tidemark.read.fallbacks";
  static final String TIMEOUTS = "tidemark.read.timeouts";
  static final String REJECTIONS = "tidemark.read.rejections";

  private static final Set<Reason> FALLBACK =
      EnumSet.of(Reason.SOURCE_FALLBACK, Reason.SOURCE_BY_POLICY, Reason.SOURCE_FOR_WRITE);
  private static final Set<Reason> TIMEOUT =
      EnumSet.of(Reason.WAIT_TIMEOUT, Reason.BUDGET_EXHAUSTED);

  private final Meter.MeterProvider<Counter> fallbacks;
  private final Meter.MeterProvider<Counter> timeouts;
  private final Meter.MeterProvider<Counter> rejections;

  ReadMetrics(MeterRegistry registry) {
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
  public Read started(String name) {
    return this;
  }

  @Override
  public void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure) {
    if (record == null) {
      return;
    }
    Reason reason = record.reason();
    if (FALLBACK.contains(reason)) {
      fallbacks.withTags("reason", reason.name()).increment();
    } else if (TIMEOUT.contains(reason)) {
      timeouts.withTags("reason", reason.name()).increment();
    } else if (!reason.served()) {
      rejections.withTags("reason", reason.name()).increment();
    }
  }
}

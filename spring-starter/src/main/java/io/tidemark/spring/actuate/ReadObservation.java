package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.spring.routing.ReadInstrumentation;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Observation} named {@value #NAME} around the whole read of a {@code @ReadYourWrites}
 * method, with the low-cardinality key values {@code method} ({@code Class.method}) and {@code
 * outcome} (the {@link io.tidemark.Reason} code of the read's execution record, or {@value #ERROR}
 * when the method failed without one, e.g. a failing query).
 */
final class ReadObservation implements ReadInstrumentation {

  static final String NAME = "tidemark.read";
  static final String ERROR = "ERROR";

  /**
   * The read being observed on this thread; the reader reports its record on the same thread. Per
   * instance, so that two applications in one JVM never fill each other's outcome.
   */
  private final ThreadLocal<@Nullable Outcome> current = new ThreadLocal<>();

  private final ObservationRegistry registry;

  ReadObservation(ObservationRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void recorded(ExecutionRecord record) {
    Outcome outcome = current.get();
    if (outcome != null) {
      outcome.record = record;
    }
  }

  @Override
  public <T> T observe(String method, ObservedRead<T> read) throws Throwable {
    Observation observation =
        Observation.createNotStarted(NAME, registry)
            .contextualName("tidemark read " + method)
            .lowCardinalityKeyValue("method", method)
            .start();
    Outcome outcome = new Outcome();
    Outcome outer = current.get();
    current.set(outcome);
    try (Observation.Scope scope = observation.openScope()) {
      return read.run();
    } catch (Throwable e) {
      observation.error(e);
      throw e;
    } finally {
      current.set(outer);
      ExecutionRecord record = outcome.record;
      observation.lowCardinalityKeyValue(
          "outcome", record != null ? record.reason().name() : ERROR);
      observation.stop();
    }
  }

  private static final class Outcome {
    @Nullable ExecutionRecord record;
  }
}

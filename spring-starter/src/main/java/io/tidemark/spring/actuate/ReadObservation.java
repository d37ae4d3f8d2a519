package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.WaitListener;
import io.tidemark.spring.routing.ReadInstrumentation;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Observation} named {@value #NAME} around the whole read of a {@code @ReadYourWrites}
 * method, with the low-cardinality key values {@code method} ({@code Class.method}), {@code
 * outcome} (the {@link io.tidemark.Reason} code of the read's execution record, or {@value #ERROR}
 * when the method failed without one, e.g. a failing query), {@code node} (its configured name) and
 * {@code role}, and the high-cardinality {@code acquiring.ms}, {@code waited.ms} and {@code
 * querying.ms}. Each wait for a replica inside it is a child observation named {@value #WAIT}, with
 * {@code coalesced} (a follower of another read's wait) and {@code outcome} ({@code REACHED} or
 * {@code NOT_REACHED}), so that a trace shows where a slow read's time went.
 */
final class ReadObservation implements ReadInstrumentation {

  static final String NAME = "tidemark.read";
  static final String WAIT = "tidemark.read.wait";
  static final String ERROR = "ERROR";

  /**
   * The read being observed on this thread; the reader reports its record on the same thread. Per
   * instance, so that two applications in one JVM never fill each other's outcome.
   */
  private final ThreadLocal<@Nullable Outcome> current = new ThreadLocal<>();

  private final ObservationRegistry registry;
  private final NodeNames names;

  ReadObservation(ObservationRegistry registry, NodeNames names) {
    this.registry = registry;
    this.names = names;
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
      if (record != null) {
        observation
            .lowCardinalityKeyValue("node", names.of(record.node()))
            .lowCardinalityKeyValue("role", record.role().name())
            .highCardinalityKeyValue("acquiring.ms", millis(record.acquiring()))
            .highCardinalityKeyValue("waited.ms", millis(record.waited()))
            .highCardinalityKeyValue("querying.ms", millis(record.querying()));
      }
      observation.stop();
    }
  }

  /** Starts the wait's child observation; its parent is the read's, open on this thread. */
  @Override
  public WaitListener.Ended waiting(boolean coalesced) {
    Observation wait =
        Observation.createNotStarted(WAIT, registry)
            .contextualName("tidemark wait")
            .lowCardinalityKeyValue("coalesced", String.valueOf(coalesced))
            .start();
    return reached -> {
      wait.lowCardinalityKeyValue("outcome", reached ? "REACHED" : "NOT_REACHED");
      wait.stop();
    };
  }

  private static String millis(Duration duration) {
    return String.valueOf(duration.toNanos() / 1_000_000.0);
  }

  private static final class Outcome {
    @Nullable ExecutionRecord record;
  }
}

package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.WaitListener;
import io.tidemark.spring.routing.ReadInstrumentation;
import org.jspecify.annotations.Nullable;

/**
 * A {@code tidemark.read} observation around the whole read of a {@code @ReadYourWrites} method,
 * with a child {@code tidemark.read.wait} observation for each wait for a replica, so that a trace
 * shows where a slow read's time went; named and tagged by their conventions ({@link
 * DefaultReadObservationConvention}, {@link DefaultWaitObservationConvention}, or the
 * application's).
 */
final class ReadObservation implements ReadInstrumentation {

  private static final ReadObservationConvention READ = new DefaultReadObservationConvention();
  private static final WaitObservationConvention WAIT = new DefaultWaitObservationConvention();

  /**
   * The read being observed on this thread; the reader reports its record on the same thread. Per
   * instance, so that two applications in one JVM never fill each other's outcome.
   */
  private final ThreadLocal<@Nullable ReadObservationContext> current = new ThreadLocal<>();

  private final ObservationRegistry registry;
  private final NodeNames names;
  private final @Nullable ReadObservationConvention readConvention;
  private final @Nullable WaitObservationConvention waitConvention;

  ReadObservation(
      ObservationRegistry registry,
      NodeNames names,
      @Nullable ReadObservationConvention readConvention,
      @Nullable WaitObservationConvention waitConvention) {
    this.registry = registry;
    this.names = names;
    this.readConvention = readConvention;
    this.waitConvention = waitConvention;
  }

  @Override
  public void recorded(ExecutionRecord record) {
    ReadObservationContext context = current.get();
    if (context != null) {
      context.recorded(record, names.of(record.node()));
    }
  }

  @Override
  public <T> T observe(String method, ObservedRead<T> read) throws Throwable {
    ReadObservationContext context = new ReadObservationContext(method);
    Observation observation =
        Observation.createNotStarted(readConvention, READ, () -> context, registry).start();
    ReadObservationContext outer = current.get();
    current.set(context);
    try (Observation.Scope scope = observation.openScope()) {
      return read.run();
    } catch (Throwable e) {
      observation.error(e);
      throw e;
    } finally {
      current.set(outer);
      observation.stop();
    }
  }

  /** Starts the wait's child observation; its parent is the read's, open on this thread. */
  @Override
  public WaitListener.Ended waiting(String node, boolean coalesced) {
    WaitObservationContext context = new WaitObservationContext(node, coalesced);
    Observation wait =
        Observation.createNotStarted(waitConvention, WAIT, () -> context, registry).start();
    return reached -> {
      context.ended(reached);
      wait.stop();
    };
  }
}

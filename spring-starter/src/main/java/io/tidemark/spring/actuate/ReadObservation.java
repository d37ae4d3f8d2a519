package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.ReadListener;
import org.jspecify.annotations.Nullable;

/**
 * A {@code tidemark.read} observation around each read (a {@code @ReadYourWrites} method, a query
 * the automatic mode reads), with a child {@code tidemark.read.wait} observation for each wait for
 * a replica, so that a trace shows where a slow read's time went; named and tagged by their
 * conventions ({@link DefaultReadObservationConvention}, {@link DefaultWaitObservationConvention},
 * or the application's).
 */
final class ReadObservation implements ReadListener {

  private static final ReadObservationConvention READ = new DefaultReadObservationConvention();
  private static final WaitObservationConvention WAIT = new DefaultWaitObservationConvention();

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

  /**
   * Starts the read's observation and opens its scope on this thread, where the reader runs the
   * whole read: the spans of its statements, and its waits, are the read's children.
   */
  @Override
  public Read started(String name) {
    ReadObservationContext context = new ReadObservationContext(name);
    Observation observation =
        Observation.createNotStarted(readConvention, READ, () -> context, registry).start();
    Observation.Scope scope = observation.openScope();
    return new Read() {
      @Override
      public Wait waiting(String node, boolean coalesced) {
        WaitObservationContext waiting = new WaitObservationContext(node, coalesced);
        Observation wait =
            Observation.createNotStarted(waitConvention, WAIT, () -> waiting, registry).start();
        return reached -> {
          waiting.ended(reached);
          wait.stop();
        };
      }

      @Override
      public void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure) {
        if (record != null) {
          context.recorded(record, names.of(record.node()));
        }
        if (failure != null) {
          observation.error(failure);
        }
        scope.close();
        observation.stop();
      }
    };
  }
}

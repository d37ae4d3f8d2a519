package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting in tests for what the view's background probes will see, and what reads choose then. */
final class Conditions {

  private Conditions() {}

  /** Returns once {@code condition} holds; fails after 15 s. */
  static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 15 s");
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Once the view sees {@code lagging} not replicating and over 300 ms behind what its source
   * wrote, reads of that write keep going to {@code other}; the caller has stopped {@code lagging}
   * applying and written on {@code source}.
   */
  static void assertReadsPassOverTheLaggingReplica(
      TopologyView view, String source, String lagging, String other) {
    awaitTrue(
        () -> {
          NodeState state = view.refreshNow().join().node(lagging).orElseThrow();
          return !state.replicating() && state.lag().compareTo(Duration.ofMillis(300)) > 0;
        });
    NodeSelector selector = new NodeSelector(view, Duration.ofMillis(200));
    GtidSet written = view.snapshot().node(source).orElseThrow().gtidExecuted();
    for (int i = 0; i < 4; i++) {
      assertThat(selector.replicaFor(written).node().name()).isEqualTo(other);
    }
  }
}

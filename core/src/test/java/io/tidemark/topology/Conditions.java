package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waiting in tests for what the view's background probes will see, and what reads and writes choose
 * then.
 */
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

  /**
   * What the view reports once both replicas applied all {@code source} wrote: {@code source} the
   * only writable node and the writer, the replicas readable, replicating and not behind, and one
   * of them chosen for a read of all the source executed. Returns that snapshot, for what else each
   * database reports.
   */
  static TopologySnapshot assertCaughtUpReplicasAreRead(
      TopologyView view, String source, String replica1, String replica2) {
    TopologySnapshot snapshot = view.refreshNow().join();

    assertThat(snapshot.writable()).extracting(NodeState::name).containsExactly(source);
    for (String replica : List.of(replica1, replica2)) {
      NodeState state = snapshot.node(replica).orElseThrow();
      assertThat(state.readable()).as(replica).isTrue();
      assertThat(state.replicating()).isTrue();
      assertThat(state.lag()).isZero();
    }
    NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(1));
    assertThat(selector.writer().node().name()).isEqualTo(source);
    GtidSet sourceExecuted = snapshot.node(source).orElseThrow().gtidExecuted();
    assertThat(selector.replicaFor(sourceExecuted).node().name()).isIn(replica1, replica2);
    return snapshot;
  }

  /** What a view of {@code node} alone reports of it after one refresh. */
  static NodeState probedAlone(NodeConfig node) {
    try (TopologyView probes = TopologyView.builder(List.of(node)).build()) {
      return probes.refreshNow().join().node(node.name()).orElseThrow();
    }
  }

  /** No writer is chosen while {@code writables} all take writes: a split brain, naming them. */
  static void assertSplitBrain(NodeSelector selector, String... writables) {
    NodeSelector.Choice writer = selector.writer();
    assertThat(writer.chosen()).isFalse();
    assertThat(writer.reason()).isEqualTo(Reason.SPLIT_BRAIN);
    assertThat(writer.detail()).contains(writables);
  }
}

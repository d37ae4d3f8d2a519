package io.tidemark.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults applied one after another on a thread of their own while a workload runs; each is undone
 * before the next, with a gap between them, and each is undone even when the schedule fails.
 */
final class FaultSchedule {

  /** One fault: what it does, how it is undone, and for how long it holds. */
  record Fault(String name, Runnable inflict, Runnable undo, Duration holds) {}

  /**
   * A fault as it was applied: from when it was inflicted to when it was undone ({@link
   * System#nanoTime()}), {@code at} seconds after the schedule began.
   */
  record Applied(String name, long inflicted, long undone, double at) {

    @Override
    public String toString() {
      return String.format("%s (at %.1f s)", name, at);
    }
  }

  private final List<Fault> faults = new ArrayList<>();

  FaultSchedule then(String name, Runnable inflict, Runnable undo, Duration holds) {
    faults.add(new Fault(name, inflict, undo, holds));
    return this;
  }

  /** Appends every fault of {@code other}, in its order. */
  FaultSchedule then(FaultSchedule other) {
    faults.addAll(other.faults);
    return this;
  }

  /** Time the schedule takes from its start to its last undo. */
  Duration length(Duration delay, Duration gap) {
    Duration total = delay;
    for (Fault fault : faults) {
      total = total.plus(fault.holds()).plus(gap);
    }
    return total;
  }

  /**
   * Starts the schedule after {@code delay}, pausing {@code gap} after each fault is undone; the
   * future gives the faults applied, in order, once the last was undone.
   */
  CompletableFuture<List<Applied>> start(Duration delay, Duration gap) {
    return CompletableFuture.supplyAsync(
        () -> {
          List<Applied> applied = new ArrayList<>();
          long begun = System.nanoTime();
          LockSupport.parkNanos(delay.toNanos());
          for (Fault fault : faults) {
            long inflicted = System.nanoTime();
            fault.inflict().run();
            try {
              LockSupport.parkNanos(fault.holds().toNanos());
            } finally {
              fault.undo().run();
            }
            applied.add(
                new Applied(fault.name(), inflicted, System.nanoTime(), (inflicted - begun) / 1e9));
            LockSupport.parkNanos(gap.toNanos());
          }
          return List.copyOf(applied);
        });
  }
}

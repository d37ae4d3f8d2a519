package io.tidemark.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults applied one after another on a thread of their own while a workload runs; each is undone
 * before the next, and all are undone when the schedule ends or fails.
 */
final class FaultSchedule {

  /** One fault: what it does, how it is undone, and for how long it holds. */
  record Fault(String name, Runnable inflict, Runnable undo, Duration holds) {}

  private final List<Fault> faults = new ArrayList<>();
  private final List<String> applied = new ArrayList<>();

  FaultSchedule then(String name, Runnable inflict, Runnable undo, Duration holds) {
    faults.add(new Fault(name, inflict, undo, holds));
    return this;
  }

  /** Starts the schedule after {@code delay}; the future ends once every fault was undone. */
  CompletableFuture<List<String>> start(Duration delay) {
    return CompletableFuture.supplyAsync(
        () -> {
          LockSupport.parkNanos(delay.toNanos());
          for (Fault fault : faults) {
            fault.inflict().run();
            try {
              LockSupport.parkNanos(fault.holds().toNanos());
            } finally {
              fault.undo().run();
            }
            applied.add(fault.name() + " for " + fault.holds().toMillis() + " ms");
          }
          return List.copyOf(applied);
        });
  }
}

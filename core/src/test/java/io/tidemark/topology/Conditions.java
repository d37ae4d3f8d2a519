package io.tidemark.topology;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting in tests for what the view's background probes will see. */
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
}

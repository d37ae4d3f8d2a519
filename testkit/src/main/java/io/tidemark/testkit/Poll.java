package io.tidemark.testkit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition by polling with a short, growing pause; never waits unbounded. */
public final class Poll {

  private Poll() {}

  /** Returns whether {@code condition} became true within {@code timeout}. */
  public static boolean until(BooleanSupplier condition, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pauseMillis = 5;
    while (true) {
      if (condition.getAsBoolean()) {
        return true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        // Polling a server that gives no notification; the pause is bounded by the deadline.
        Thread.sleep(Math.min(pauseMillis, TimeUnit.NANOSECONDS.toMillis(left) + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TestkitException("interrupted while waiting", e);
      }
      pauseMillis = Math.min(pauseMillis * 2, 100);
    }
  }
}

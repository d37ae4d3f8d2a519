package io.tidemark.testkit.mysql;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A replica that lags as a busy one does, until closed: its applier is held for a random time
 * between a least and a most, then runs for 20 ms, again and again, so that every write reaches it
 * that much later. {@code MASTER_DELAY} counts in whole seconds; this lags by milliseconds.
 *
 * <pre>{@code
 * try (ApplierLag lag =
 *     ApplierLag.start(topology.replica(), Duration.ofMillis(100), Duration.ofMillis(500))) {
 *   // requests against a replica 100 to 500 ms behind
 * }
 * }</pre>
 */
public final class ApplierLag implements AutoCloseable {

  private static final long RUNS_MILLIS = 20;

  private final MySqlNode replica;
  private final long leastMillis;
  private final long mostMillis;
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();

  private ApplierLag(MySqlNode replica, long leastMillis, long mostMillis) {
    this.replica = replica;
    this.leastMillis = leastMillis;
    this.mostMillis = mostMillis;
  }

  /**
   * Starts holding {@code replica}'s applier for {@code least} to {@code most} at a time.
   *
   * @throws IllegalArgumentException when {@code least} is negative or {@code most} is less
   */
  public static ApplierLag start(MySqlNode replica, Duration least, Duration most) {
    if (least.isNegative() || most.compareTo(least) < 0) {
      throw new IllegalArgumentException(
          "a lag needs 0 <= least <= most, was " + least + " and " + most);
    }
    ApplierLag lag = new ApplierLag(replica, least.toMillis(), most.toMillis());
    lag.clock.execute(lag::hold);
    return lag;
  }

  private void hold() {
    replica.pauseApplier();
    clock.schedule(
        () -> {
          replica.resumeApplier();
          clock.schedule(this::hold, RUNS_MILLIS, TimeUnit.MILLISECONDS);
        },
        ThreadLocalRandom.current().nextLong(leastMillis, mostMillis + 1),
        TimeUnit.MILLISECONDS);
  }

  /** Stops holding the applier, and leaves it running. */
  @Override
  public void close() {
    clock.shutdownNow();
    try {
      clock.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    replica.resumeApplier();
  }
}

package io.tidemark.testkit;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The faults set on one direction of a {@link FaultLink}. Owned by the link's selector thread: the
 * bandwidth budget is one per direction and link, so every connection shares the capped pipe, as on
 * a real thin link.
 */
final class DirectionFaults {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private long fixedNanos;
  private long jitterNanos;
  private long bytesPerSecond;
  private double budget;
  private long budgetTime;
  private boolean blackHoled;
  private boolean dropped;

  void latency(Duration fixed, Duration jitter) {
    fixedNanos = fixed.toNanos();
    jitterNanos = jitter.toNanos();
  }

  void bandwidth(long perSecond, long now) {
    bytesPerSecond = perSecond;
    budget = burst();
    budgetTime = now;
  }

  void blackHole() {
    blackHoled = true;
  }

  void drop() {
    dropped = true;
  }

  void clear() {
    fixedNanos = 0;
    jitterNanos = 0;
    bytesPerSecond = 0;
    blackHoled = false;
    dropped = false;
  }

  boolean blackHoled() {
    return blackHoled;
  }

  boolean dropped() {
    return dropped;
  }

  /** How long bytes read now wait before they are written on. */
  long delay() {
    return jitterNanos == 0
        ? fixedNanos
        : fixedNanos + ThreadLocalRandom.current().nextLong(jitterNanos + 1);
  }

  /** How many bytes may be written now; {@link Long#MAX_VALUE} without a cap. */
  long allowance(long now) {
    if (bytesPerSecond == 0) {
      return Long.MAX_VALUE;
    }
    budget =
        Math.min(burst(), budget + (now - budgetTime) * (double) bytesPerSecond / NANOS_PER_SECOND);
    budgetTime = now;
    return (long) budget;
  }

  void spend(long bytes) {
    if (bytesPerSecond != 0) {
      budget -= bytes;
    }
  }

  /**
   * When the budget will allow {@code wanted} bytes, or a full burst if that is less: waiting for
   * single bytes would wake the selector thread for every few bytes.
   */
  long allowanceAt(long now, long wanted) {
    double missing = Math.min(wanted, burst()) - budget;
    return now + (long) Math.ceil(missing * NANOS_PER_SECOND / bytesPerSecond);
  }

  /** A twentieth of a second's worth: short bursts, so that a cap holds over any second. */
  private double burst() {
    return Math.max(1, bytesPerSecond / 20);
  }
}

package io.tidemark;

import java.time.Duration;
import java.util.Objects;

/**
 * The instant by which a read must have ended, on a {@link Ticker}: everything a read does (pool
 * acquire, wait, query) draws on the time left.
 */
public final class Deadline {

  private static final Duration YEAR = Duration.ofDays(365);

  private final Ticker ticker;
  private final long deadlineNanos;

  private Deadline(Ticker ticker, long deadlineNanos) {
    this.ticker = ticker;
    this.deadlineNanos = deadlineNanos;
  }

  /** The deadline {@code budget} from now; a zero or negative budget is already expired. */
  public static Deadline after(Duration budget, Ticker ticker) {
    Objects.requireNonNull(budget, "budget");
    long now = ticker.read();
    // Clamped so that the arithmetic below cannot overflow; a year is forever for a read.
    Duration clamped =
        budget.isNegative() ? Duration.ZERO : budget.compareTo(YEAR) > 0 ? YEAR : budget;
    return new Deadline(ticker, now + clamped.toNanos());
  }

  /** Time left, negative once passed. */
  public Duration remaining() {
    return Duration.ofNanos(remainingNanos());
  }

  long remainingNanos() {
    return deadlineNanos - ticker.read();
  }

  public boolean isExpired() {
    return remainingNanos() <= 0;
  }

  /** The earlier of this deadline and {@code budget} from now. */
  public Deadline atMost(Duration budget) {
    Deadline other = after(budget, ticker);
    return other.deadlineNanos - deadlineNanos < 0 ? other : this;
  }

  @Override
  public String toString() {
    return "Deadline(" + remaining().toMillis() + " ms left)";
  }
}

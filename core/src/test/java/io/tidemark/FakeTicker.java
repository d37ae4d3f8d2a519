package io.tidemark;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that only moves when told to; safe to share between threads. */
public final class FakeTicker implements Ticker {

  private final AtomicLong nanos;

  /** A ticker at an arbitrary origin, as {@link System#nanoTime()} has one. */
  public FakeTicker() {
    this(1_000_000_000_000L);
  }

  public FakeTicker(long origin) {
    this.nanos = new AtomicLong(origin);
  }

  @Override
  public long read() {
    return nanos.get();
  }

  public void advance(Duration duration) {
    advanceNanos(duration.toNanos());
  }

  public void advanceNanos(long delta) {
    if (delta < 0) {
      throw new IllegalArgumentException("a ticker never goes back: " + delta);
    }
    nanos.addAndGet(delta);
  }

  /** Time passed since {@code start}, a value this ticker read earlier. */
  public Duration since(long start) {
    return Duration.ofNanos(read() - start);
  }
}

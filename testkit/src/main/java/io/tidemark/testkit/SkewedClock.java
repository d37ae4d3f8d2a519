package io.tidemark.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The system clock moved by an offset that a test changes while it runs: given to one instance as
 * its token clock, it is that instance's clock running ahead (a positive skew) or behind the
 * others', as on a host whose time drifted.
 */
public final class SkewedClock implements InstantSource {

  private volatile Duration skew;

  /** A clock {@code skew} ahead of the system clock (behind when negative). */
  public SkewedClock(Duration skew) {
    this.skew = skew;
  }

  /** Moves the clock to {@code skew} ahead of the system clock (behind when negative). */
  public void skew(Duration skew) {
    this.skew = skew;
  }

  /** How far ahead of the system clock this one is now. */
  public Duration skew() {
    return skew;
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(skew);
  }

  @Override
  public long millis() {
    return System.currentTimeMillis() + skew.toMillis();
  }

  @Override
  public String toString() {
    return "SkewedClock[" + skew + "]";
  }
}

package io.tidemark;

/**
 * A source of monotonic nanosecond time for deadlines and waited durations; tests inject a fake one
 * instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

  /** Nanoseconds from an arbitrary fixed origin; only differences mean anything. */
  long read();

  /** The ticker backed by {@link System#nanoTime()}. */
  static Ticker systemTicker() {
    return System::nanoTime;
  }
}

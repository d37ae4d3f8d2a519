package io.tidemark;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that tests move by hand. */
final class MutableClock implements InstantSource {

  private Instant now;

  MutableClock(Instant now) {
    this.now = now;
  }

  void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }
}

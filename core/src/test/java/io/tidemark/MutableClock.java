package io.tidemark;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that tests move by hand. */
public final class MutableClock implements InstantSource {

  private Instant now;

  public MutableClock(Instant now) {
    this.now = now;
  }

  public void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }
}

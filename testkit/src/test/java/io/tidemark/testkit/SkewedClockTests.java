package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SkewedClockTests {

  @Test
  void runsAheadOrBehindTheSystemClockByItsSkewAsItChanges() {
    SkewedClock clock = new SkewedClock(Duration.ofMinutes(10));
    assertThat(Duration.between(Instant.now(), clock.instant()))
        .isBetween(Duration.ofMinutes(10).minusSeconds(1), Duration.ofMinutes(10).plusSeconds(1));

    clock.skew(Duration.ofMinutes(-10));

    assertThat(clock.skew()).isEqualTo(Duration.ofMinutes(-10));
    assertThat(clock.millis() - System.currentTimeMillis()).isBetween(-601_000L, -599_000L);
  }
}

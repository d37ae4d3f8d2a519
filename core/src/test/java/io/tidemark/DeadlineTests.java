package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class DeadlineTests {

  private final FakeTicker ticker = new FakeTicker();

  @Test
  void remainingShrinksAsTimePasses() {
    Deadline deadline = Deadline.after(Duration.ofMillis(300), ticker);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(300));
    assertThat(deadline.isExpired()).isFalse();

    ticker.advance(Duration.ofMillis(120));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(180));

    ticker.advance(Duration.ofMillis(180));
    assertThat(deadline.remaining()).isZero();
    assertThat(deadline.isExpired()).isTrue();

    ticker.advance(Duration.ofMillis(5));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(-5));
  }

  @Test
  void zeroOrNegativeBudgetIsExpiredAtOnce() {
    assertThat(Deadline.after(Duration.ZERO, ticker).isExpired()).isTrue();
    assertThat(Deadline.after(Duration.ofNanos(-1), ticker).isExpired()).isTrue();
    assertThat(Deadline.after(Duration.ofSeconds(-30), ticker).isExpired()).isTrue();
    assertThat(Deadline.after(Duration.ofNanos(1), ticker).isExpired()).isFalse();
  }

  @Test
  void negativeBudgetTooLongToCountInNanosIsExpiredToo() {
    Deadline deadline = Deadline.after(ChronoUnit.FOREVER.getDuration().negated(), ticker);

    assertThat(deadline.isExpired()).isTrue();
  }

  @Test
  void anyBudgetTooLongToCountInNanosIsCapped() {
    Deadline deadline = Deadline.after(ChronoUnit.FOREVER.getDuration(), ticker);

    assertThat(deadline.isExpired()).isFalse();
    assertThat(deadline.remaining()).isGreaterThanOrEqualTo(Duration.ofDays(365));
  }

  @Test
  void atMostPicksTheEarlierDeadline() {
    Deadline deadline = Deadline.after(Duration.ofMillis(500), ticker);

    assertThat(deadline.atMost(Duration.ofMillis(200)).remaining())
        .isEqualTo(Duration.ofMillis(200));
    assertThat(deadline.atMost(Duration.ofSeconds(2))).isSameAs(deadline);

    ticker.advance(Duration.ofMillis(400));
    assertThat(deadline.atMost(Duration.ofMillis(200))).isSameAs(deadline);
  }

  @Test
  void countsAcrossTheTickersOverflow() {
    FakeTicker nearTheEnd = new FakeTicker(Long.MAX_VALUE - Duration.ofMillis(100).toNanos());
    Deadline deadline = Deadline.after(Duration.ofMillis(300), nearTheEnd);

    nearTheEnd.advance(Duration.ofMillis(200));

    assertThat(deadline.isExpired()).isFalse();
    assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(100));
    assertThat(deadline.atMost(Duration.ofSeconds(1))).isSameAs(deadline);
  }
}

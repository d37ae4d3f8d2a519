package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SourceTimelineTests {

  private static final String UUID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";

  private final FakeTicker ticker = new FakeTicker();
  private final SourceTimeline timeline = new SourceTimeline(ticker);

  @Test
  void replicaMissingWhatTheSourceHadLongAgoLagsSinceThen() {
    timeline.record(GtidSet.parse(UUID + ":1-5"));
    ticker.advance(Duration.ofMillis(700));
    timeline.record(GtidSet.parse(UUID + ":1-6"));
    ticker.advance(Duration.ofMillis(300));

    assertThat(timeline.lagOf(GtidSet.parse(UUID + ":1-4"))).isEqualTo(Duration.ofSeconds(1));
    assertThat(timeline.lagOf(GtidSet.parse(UUID + ":1-5"))).isEqualTo(Duration.ofMillis(300));
    assertThat(timeline.lagOf(GtidSet.parse(UUID + ":1-6"))).isZero();
    assertThat(timeline.latest()).isEqualTo(GtidSet.parse(UUID + ":1-6"));
  }

  @Test
  void unchangedSourceDoesNotRestartTheClock() {
    timeline.record(GtidSet.parse(UUID + ":1-5"));
    ticker.advance(Duration.ofSeconds(2));
    timeline.record(GtidSet.parse(UUID + ":1-5"));

    assertThat(timeline.lagOf(GtidSet.EMPTY)).isEqualTo(Duration.ofSeconds(2));
  }
}

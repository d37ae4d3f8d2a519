package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.demo.LiveFeed.Kind;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LiveFeedTests {

  private long now = 1_000_000_500L;
  private final LiveFeed feed =
      new LiveFeed(
          new Clock() {
            @Override
            public ZoneOffset getZone() {
              return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
              return this;
            }

            @Override
            public Instant instant() {
              return Instant.ofEpochMilli(now);
            }
          });

  private static Scenario.Outcome answered(boolean found, String reason, double waitedMs) {
    return answered(true, found, reason, waitedMs, waitedMs + 2);
  }

  private static Scenario.Outcome answered(
      boolean tidemark, boolean found, String reason, double waitedMs, double ageMs) {
    return new Scenario.Outcome(
        found ? 200 : 404,
        new ReadReply(
            found,
            null,
            tidemark,
            new ReadReply.ServedBy("replica", "abc", reason, waitedMs, waitedMs)),
        "",
        "",
        ageMs);
  }

  private static Scenario.Outcome refused(int status, String reason, String detail) {
    return new Scenario.Outcome(status, null, reason, detail, 5);
  }

  @Test
  void readsAreSortedByWhereTheyRanAndWhy() {
    feed.read(true, answered(true, "REPLICA_AFTER_WAIT", 12));
    feed.read(true, answered(true, "REPLICA_CAUGHT_UP", 0));
    feed.read(true, answered(true, "SOURCE_FALLBACK", 900));
    feed.read(true, answered(true, "CACHE_HIT", 0));
    feed.read(true, answered(false, "REPLICA_AFTER_WAIT", 3));
    feed.read(true, refused(503, "BUDGET_EXHAUSTED", "late"));
    feed.read(true, refused(500, "HTTP 500", "broken"));
    feed.read(false, answered(false, true, "PLAIN_REPLICA_READ", 0, 3));
    feed.read(false, answered(false, false, "PLAIN_REPLICA_READ", 0, 3));
    // Without Tidemark nothing refuses: a 503 of a plain read failed.
    feed.read(false, refused(503, "SOURCE_ERROR", "lost"));

    LiveFeed.View view = feed.view();

    int last = LiveFeed.SECONDS - 1;
    for (Kind kind : Kind.values()) {
      assertThat(view.reads().get(kind)[last]).as(kind.name()).isEqualTo(1);
    }
    assertThat(view.totals()).isEqualTo(new LiveFeed.Totals(2, 1, 6, 1, 1, 2));
    assertThat(view.refusals())
        .containsEntry("BUDGET_EXHAUSTED", 1)
        .containsEntry("HTTP 500", 1)
        .containsEntry("SOURCE_ERROR", 1);
    assertThat(view.behindMs()[last]).isEqualTo(900.0);
  }

  @Test
  void eachReadTellsHowFarBehindItFoundTheReplica() {
    feed.read(false, answered(false, true, "PLAIN_REPLICA_READ", 0, 3));
    feed.read(true, answered(true, "REPLICA_CAUGHT_UP", 0));
    feed.read(true, answered(true, "REPLICA_AFTER_WAIT", 12));
    feed.read(true, answered(true, "SOURCE_FALLBACK", 150));
    feed.read(false, answered(false, false, "PLAIN_REPLICA_READ", 0, 4.5));
    feed.read(true, answered(false, "REPLICA_AFTER_WAIT", 3));
    feed.read(true, refused(503, "WAIT_TIMEOUT", "replica behind"));

    assertThat(feed.recent(10))
        .extracting(LiveFeed.Read::behindMs)
        .as("newest first: nothing known of a refusal; a stale read is behind by its order's age")
        .containsExactly(0.0, 5.0, 4.5, 150.0, 12.0, 0.0, 0.0);
  }

  @Test
  void aSecondOfStaleReadsIsASecondTheReplicaWasBehind() {
    feed.read(false, answered(false, true, "PLAIN_REPLICA_READ", 0, 2));
    now += 1_000;
    feed.read(false, answered(false, false, "PLAIN_REPLICA_READ", 0, 3));
    feed.read(false, answered(false, true, "PLAIN_REPLICA_READ", 0, 4));
    feed.read(true, refused(503, "WAIT_TIMEOUT", "replica behind"));

    LiveFeed.View view = feed.view();

    assertThat(view.reads().get(Kind.OFF_STALE)[LiveFeed.SECONDS - 1]).isEqualTo(1);
    assertThat(view.behindMs()[LiveFeed.SECONDS - 1]).isEqualTo(3.0);
    assertThat(view.behindMs()[LiveFeed.SECONDS - 2]).isZero();
    assertThat(view.behindMs()[LiveFeed.SECONDS - 3]).isNull();
  }

  @Test
  void theViewIsTheLastMinuteOneSlotASecond() {
    feed.read(true, answered(true, "REPLICA_AFTER_WAIT", 5));
    feed.lag("replica-1", 40);
    now += 2_000;
    feed.lag("replica-1", 10);
    feed.lag("replica-1", 30);

    LiveFeed.View view = feed.view();

    assertThat(view.seconds()).hasSize(LiveFeed.SECONDS);
    assertThat(view.seconds()[LiveFeed.SECONDS - 1]).isEqualTo(now / 1000);
    assertThat(view.reads().get(Kind.REPLICA_AFTER_WAIT)[LiveFeed.SECONDS - 3]).isEqualTo(1);
    assertThat(view.lagMs().get("replica-1")[LiveFeed.SECONDS - 3]).isEqualTo(40.0);
    assertThat(view.lagMs().get("replica-1")[LiveFeed.SECONDS - 2]).isNull();
    assertThat(view.lagMs().get("replica-1")[LiveFeed.SECONDS - 1]).isEqualTo(30.0);
    assertThat(view.behindMs()[LiveFeed.SECONDS - 1]).isNull();
  }

  @Test
  void readsOlderThanAMinuteLeaveTheViewButNotTheTotals() {
    feed.read(false, answered(false, "PLAIN_REPLICA_READ", 0));
    now += 61_000;
    feed.read(true, answered(true, "REPLICA_CAUGHT_UP", 0));

    LiveFeed.View view = feed.view();

    assertThat(view.reads().get(Kind.OFF_STALE)).containsOnly(0);
    assertThat(feed.recent(10))
        .extracting(LiveFeed.Read::kind)
        .containsExactly(Kind.REPLICA_CAUGHT_UP);
    assertThat(view.totals().offStale()).isEqualTo(1);
  }

  @Test
  void recentReadsComeNewestFirst() {
    feed.read(true, answered(true, "REPLICA_CAUGHT_UP", 0));
    feed.read(true, refused(503, "WAIT_TIMEOUT", "replica behind"));

    assertThat(feed.recent(1))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(Kind.REFUSED);
              assertThat(r.detail()).isEqualTo("replica behind");
            });
  }
}

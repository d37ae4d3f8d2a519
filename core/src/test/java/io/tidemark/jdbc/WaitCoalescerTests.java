package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WaitCoalescerTests {

  private static final GtidSet UP_TO_7 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-7");
  private static final GtidSet UP_TO_5 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet UP_TO_9 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-9");
  private static final GtidSet OTHER = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-2");

  private final WaitCoalescer coalescer = new WaitCoalescer();

  @Test
  void firstJoinLeads() {
    assertThat(coalescer.join(UP_TO_7)).isInstanceOf(WaitCoalescer.Lead.class);
  }

  @Test
  void coveredTokenFollowsAndLearnsTheLeadersSuccess() {
    WaitCoalescer.Lead lead = (WaitCoalescer.Lead) coalescer.join(UP_TO_7);
    CompletableFuture<Boolean> same = follow(UP_TO_7);
    CompletableFuture<Boolean> smaller = follow(UP_TO_5);
    assertThat(same).isNotDone();
    assertThat(smaller).isNotDone();

    lead.finish(true);

    assertThat(same).isCompletedWithValue(true);
    assertThat(smaller).isCompletedWithValue(true);
  }

  @Test
  void coveredTokenFollowsAndLearnsTheLeadersFailure() {
    WaitCoalescer.Lead lead = (WaitCoalescer.Lead) coalescer.join(UP_TO_7);
    CompletableFuture<Boolean> follower = follow(UP_TO_5);

    lead.finish(false);

    assertThat(follower).isCompletedWithValue(false);
  }

  @Test
  void uncoveredTokenLeadsSeparately() {
    WaitCoalescer.Lead first = (WaitCoalescer.Lead) coalescer.join(UP_TO_7);

    WaitCoalescer.Turn larger = coalescer.join(UP_TO_9);
    WaitCoalescer.Turn elsewhere = coalescer.join(OTHER);

    assertThat(larger).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
    assertThat(elsewhere).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(larger);
    assertThat(coalescer.join(UP_TO_5)).isInstanceOf(WaitCoalescer.Follow.class);
  }

  @Test
  void nextJoinLeadsAgainOnceTheLeaderFinished() {
    WaitCoalescer.Lead first = (WaitCoalescer.Lead) coalescer.join(UP_TO_7);
    first.finish(false);

    WaitCoalescer.Turn next = coalescer.join(UP_TO_5);

    assertThat(next).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
  }

  private CompletableFuture<Boolean> follow(GtidSet token) {
    WaitCoalescer.Turn turn = coalescer.join(token);
    assertThat(turn).isInstanceOf(WaitCoalescer.Follow.class);
    return ((WaitCoalescer.Follow) turn).executed();
  }
}

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

  private static final String NODE = "replica1";

  private final WaitCoalescer coalescer = new WaitCoalescer();

  @Test
  void firstJoinLeads() {
    assertThat(coalescer.join(NODE, UP_TO_7)).isInstanceOf(WaitCoalescer.Lead.class);
  }

  @Test
  void sameTokenFollowsAndLearnsTheLeadersSuccess() {
    WaitCoalescer.Lead lead = (WaitCoalescer.Lead) coalescer.join(NODE, UP_TO_7);
    CompletableFuture<Boolean> first = follow(UP_TO_7);
    CompletableFuture<Boolean> second = follow(GtidSet.parse(UP_TO_7.toString()));
    assertThat(first).isNotDone();
    assertThat(second).isNotDone();

    lead.finish(true);

    assertThat(first).isCompletedWithValue(true);
    assertThat(second).isCompletedWithValue(true);
  }

  @Test
  void sameTokenFollowsAndLearnsTheLeadersFailure() {
    WaitCoalescer.Lead lead = (WaitCoalescer.Lead) coalescer.join(NODE, UP_TO_7);
    CompletableFuture<Boolean> follower = follow(UP_TO_7);

    lead.finish(false);

    assertThat(follower).isCompletedWithValue(false);
  }

  @Test
  void anyOtherTokenLeadsSeparately() {
    WaitCoalescer.Lead first = (WaitCoalescer.Lead) coalescer.join(NODE, UP_TO_7);

    WaitCoalescer.Turn larger = coalescer.join(NODE, UP_TO_9);
    WaitCoalescer.Turn smaller = coalescer.join(NODE, UP_TO_5);
    WaitCoalescer.Turn elsewhere = coalescer.join(NODE, OTHER);

    assertThat(larger).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
    assertThat(smaller)
        .as("a smaller token may already be applied: it must not wait for the leader's")
        .isInstanceOf(WaitCoalescer.Lead.class)
        .isNotSameAs(first);
    assertThat(elsewhere).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(larger);
  }

  @Test
  void aReadRoutedToAnotherReplicaLeadsItsOwnWait() {
    WaitCoalescer.Lead stuck = (WaitCoalescer.Lead) coalescer.join(NODE, UP_TO_7);

    WaitCoalescer.Turn other = coalescer.join("replica2", UP_TO_7);

    assertThat(other)
        .as("a leader on another replica (frozen, say) is not worth waiting for")
        .isInstanceOf(WaitCoalescer.Lead.class)
        .isNotSameAs(stuck);
    assertThat(follow(UP_TO_7)).isNotDone();
  }

  @Test
  void nextJoinLeadsAgainOnceTheLeaderFinished() {
    WaitCoalescer.Lead first = (WaitCoalescer.Lead) coalescer.join(NODE, UP_TO_7);
    first.finish(false);

    WaitCoalescer.Turn next = coalescer.join(NODE, UP_TO_5);

    assertThat(next).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
  }

  private CompletableFuture<Boolean> follow(GtidSet required) {
    WaitCoalescer.Turn turn = coalescer.join(NODE, required);
    assertThat(turn).isInstanceOf(WaitCoalescer.Follow.class);
    return ((WaitCoalescer.Follow) turn).executed();
  }
}

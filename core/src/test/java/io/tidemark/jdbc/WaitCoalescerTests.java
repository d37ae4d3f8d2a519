package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.TestThreads;
import io.tidemark.dialect.Dialect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WaitCoalescerTests {

  private static final GtidSet UP_TO_7 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-7");
  private static final GtidSet UP_TO_5 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet UP_TO_3 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-3");
  private static final GtidSet UP_TO_8 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-8");
  private static final GtidSet UP_TO_9 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-9");
  private static final GtidSet OTHER = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-2");
  private static final long LONG = TimeUnit.SECONDS.toNanos(30);

  private static final String NODE = "replica1";
  private static final Dialect.WaitSight OWN = Dialect.WaitSight.OWN_POSITION;
  private static final Dialect.WaitSight RETURNED = Dialect.WaitSight.WHEN_RETURNED;
  private static final Dialect.WaitSight GOES = Dialect.WaitSight.AS_IT_GOES;

  private final AtomicInteger wave = new AtomicInteger(2);
  private final WaitCoalescer coalescer = new WaitCoalescer(wave::get);
  @RegisterExtension final TestThreads threads = TestThreads.cached();
  private final ExecutorService followers = threads.executor();

  @Test
  void firstJoinLeads() {
    assertThat(coalescer.join(NODE, UP_TO_7, OWN)).isInstanceOf(WaitCoalescer.Lead.class);
  }

  @Test
  void afterASuccessFollowersGoInWavesEachDoneOneLettingTheNextGo() throws Exception {
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_7, OWN);
    List<Follower> waiting = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      waiting.add(follow(GtidSet.parse(UP_TO_7.toString()), LONG));
    }

    lead.finish(true);

    assertThat(waiting.get(0).outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(waiting.get(1).outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertStillWaiting(waiting.get(2));
    assertStillWaiting(waiting.get(3));

    waiting.get(0).turn.done();
    waiting.get(0).turn.done();

    assertThat(waiting.get(2).outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertStillWaiting(waiting.get(3));
    waiting.get(1).turn.done();
    assertThat(waiting.get(3).outcome.get(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void atLeastOneFollowerGoesWhenNoPermitIsFree() throws Exception {
    wave.set(0);
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_7, OWN);
    Follower first = follow(UP_TO_7, LONG);
    Follower second = follow(UP_TO_7, LONG);

    lead.finish(true);

    assertThat(first.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertStillWaiting(second);
  }

  @Test
  void afterAFailureOneFollowerLeadsTheNextWaitAndTheOthersFollowIt() throws Exception {
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_7, OWN);
    List<Follower> waiting = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      waiting.add(follow(UP_TO_7, LONG));
    }

    lead.finish(false);
    lead.finish(true);

    assertThat(waiting.get(0).outcome.get(10, TimeUnit.SECONDS)).isFalse();
    WaitCoalescer.Lead next = waiting.get(0).turn.promoted();
    assertThat(next).isNotNull();
    for (Follower follower : waiting.subList(1, 5)) {
      assertStillWaiting(follower);
    }
    assertThat(coalescer.join(NODE, UP_TO_7, OWN))
        .as("a later read follows the wait handed over")
        .isInstanceOf(WaitCoalescer.Follow.class);

    next.finish(true);

    assertThat(waiting.get(1).outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(waiting.get(1).turn.promoted()).isNull();
  }

  @Test
  void theNearestOfTheFollowersLeftLeadsTheNextWaitAndTheFurtherOnesFollowIt() throws Exception {
    WaitCoalescer.Lead three = lead(NODE, UP_TO_3, RETURNED);
    Follower nine = follow(NODE, UP_TO_9, RETURNED, LONG);
    Follower five = follow(NODE, UP_TO_5, RETURNED, LONG);
    Follower seven = follow(NODE, UP_TO_7, RETURNED, LONG);

    three.finish(true);

    assertThat(five.outcome.get(10, TimeUnit.SECONDS)).isFalse();
    WaitCoalescer.Lead next = five.turn.promoted();
    assertThat(next).isNotNull();
    assertSevenIsLetGoAndNineLeadsNext(next, seven, nine);
  }

  @Test
  void whenNoTokenLeftIsOneTheOthersReachAsFarEachFollowerDecidesForItself() throws Exception {
    WaitCoalescer.Lead lead =
        lead(NODE, GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:5"), RETURNED);
    Follower withAnotherOrigin =
        follow(
            NODE, GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:6," + OTHER), RETURNED, LONG);
    Follower seventh =
        follow(NODE, GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:7"), RETURNED, LONG);

    lead.finish(true);

    for (Follower follower : List.of(withAnotherOrigin, seventh)) {
      assertThat(follower.outcome.get(10, TimeUnit.SECONDS)).isFalse();
      assertThat(follower.turn.promoted()).isNull();
    }
  }

  @Test
  void aFollowerWhoseTimeRunsOutLeavesItsPlaceToTheNext() throws Exception {
    wave.set(1);
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_7, OWN);
    Follower impatient = follow(UP_TO_7, TimeUnit.MILLISECONDS.toNanos(20));
    Follower patient = follow(UP_TO_7, LONG);

    assertThat(impatient.outcome.get(10, TimeUnit.SECONDS)).isNull();
    impatient.turn.done();
    lead.finish(true);

    assertThat(patient.outcome.get(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aWaitIsWatchedOnlyWhileOtherReadsWaitOnItsReplica() throws Exception {
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_5, RETURNED);
    assertThat(coalescer.watched(NODE)).as("a lone wait need not tell what it sees").isFalse();

    WaitCoalescer.Lead smaller = lead(NODE, UP_TO_3, RETURNED);
    assertThat(coalescer.watched(NODE)).as("two waits on one replica").isTrue();
    assertThat(coalescer.watched("replica2")).isFalse();
    smaller.finish(true);
    assertThat(coalescer.watched(NODE)).isFalse();

    follow(NODE, UP_TO_7, RETURNED, LONG);
    assertThat(coalescer.watched(NODE)).as("a read waits behind it").isTrue();
    lead.finish(false);
  }

  @Test
  void anyOtherTokenLeadsSeparately() {
    WaitCoalescer.Lead first = lead(NODE, UP_TO_7, OWN);

    WaitCoalescer.Turn larger = coalescer.join(NODE, UP_TO_9, OWN);
    WaitCoalescer.Turn smaller = coalescer.join(NODE, UP_TO_5, OWN);
    WaitCoalescer.Turn elsewhere = coalescer.join(NODE, OTHER, OWN);

    assertThat(larger).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
    assertThat(smaller)
        .as("a smaller token may already be applied: it must not wait for the leader's")
        .isInstanceOf(WaitCoalescer.Lead.class)
        .isNotSameAs(first);
    assertThat(elsewhere).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(larger);
  }

  @Test
  void aReadRoutedToAnotherReplicaLeadsItsOwnWait() {
    WaitCoalescer.Lead stuck = lead(NODE, UP_TO_7, OWN);

    WaitCoalescer.Turn other = coalescer.join("replica2", UP_TO_7, OWN);

    assertThat(other)
        .as("a leader on another replica (frozen, say) is not worth waiting for")
        .isInstanceOf(WaitCoalescer.Lead.class)
        .isNotSameAs(stuck);
  }

  @Test
  void nextJoinLeadsAgainOnceTheLeaderFinished() {
    WaitCoalescer.Lead first = lead(NODE, UP_TO_7, OWN);
    first.finish(false);

    WaitCoalescer.Turn next = coalescer.join(NODE, UP_TO_7, OWN);

    assertThat(next).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
  }

  @Test
  void whereWaitsSeeThePositionEveryReadOnTheReplicaFollowsWhateverItsToken() {
    WaitCoalescer.Lead first = lead(NODE, UP_TO_5, GOES);

    WaitCoalescer.Turn larger = coalescer.join(NODE, UP_TO_9, GOES);
    WaitCoalescer.Turn smaller = coalescer.join(NODE, UP_TO_3, GOES);
    WaitCoalescer.Turn elsewhere = coalescer.join(NODE, OTHER, GOES);
    WaitCoalescer.Turn unseen = coalescer.join(NODE, UP_TO_7, OWN);
    WaitCoalescer.Turn otherReplica = coalescer.join("replica2", UP_TO_7, GOES);

    assertThat(List.of(larger, smaller, elsewhere))
        .allMatch(WaitCoalescer.Follow.class::isInstance);
    assertThat(unseen).isInstanceOf(WaitCoalescer.Lead.class).isNotSameAs(first);
    assertThat(otherReplica).isInstanceOf(WaitCoalescer.Lead.class);
  }

  @Test
  void whereAWaitSeesThePositionWhenItReturnsAReadFollowsTheNearestLeaderBelowItsToken()
      throws Exception {
    WaitCoalescer.Lead five = lead(NODE, UP_TO_5, RETURNED);
    WaitCoalescer.Turn three = coalescer.join(NODE, UP_TO_3, RETURNED);
    Follower seven = follow(NODE, UP_TO_7, RETURNED, LONG);
    Follower nine = follow(NODE, UP_TO_9, RETURNED, LONG);

    assertThat(three)
        .as("a smaller token may already be applied: it must not wait for the leader's")
        .isInstanceOf(WaitCoalescer.Lead.class);
    ((WaitCoalescer.Lead) three).finish(false);
    assertSevenIsLetGoAndNineLeadsNext(five, seven, nine);
  }

  @Test
  void aTokenOfItsOwnWritesFollowsALeaderWhoseWritesCameBeforeThemInEachOrigin() {
    GtidSet fifth = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:5");
    coalescer.join(NODE, fifth, RETURNED);

    WaitCoalescer.Turn seventh =
        coalescer.join(NODE, GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:7"), RETURNED);
    WaitCoalescer.Turn withAnotherOrigin =
        coalescer.join(
            NODE,
            GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:6," + OTHER.toString()),
            RETURNED);
    WaitCoalescer.Turn third =
        coalescer.join(NODE, GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:3"), RETURNED);

    assertThat(seventh).isInstanceOf(WaitCoalescer.Follow.class);
    assertThat(withAnotherOrigin).isInstanceOf(WaitCoalescer.Follow.class);
    assertThat(third).isInstanceOf(WaitCoalescer.Lead.class);
  }

  @Test
  void eachLookLetsGoTheFollowersWhoseTokenTheReplicaHasAndTheLeadsEndHandsTheWaitOver()
      throws Exception {
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_5, GOES);
    Follower three = follow(NODE, UP_TO_3, GOES, LONG);
    Follower seven = follow(NODE, UP_TO_7, GOES, LONG);
    Follower nine = follow(NODE, UP_TO_9, GOES, LONG);

    coalescer.observed(NODE, UP_TO_3::containsAll);
    assertThat(three.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    three.turn.done();
    coalescer.observed(NODE, UP_TO_7::containsAll);

    assertThat(seven.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertStillWaiting(nine);

    lead.finish(true);

    assertThat(nine.outcome.get(10, TimeUnit.SECONDS))
        .as("the replica was not seen with its token: it leads the next wait")
        .isFalse();
    assertThat(nine.turn.promoted()).isNotNull();
  }

  @Test
  void aLaterLookLetsGoAsManyMoreAsThereAreFreePermits() throws Exception {
    wave.set(3);
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_9, GOES);
    Follower three = follow(NODE, UP_TO_3, GOES, LONG);
    List<Follower> later = new ArrayList<>();
    for (GtidSet token : List.of(UP_TO_5, UP_TO_7, UP_TO_8)) {
      later.add(follow(NODE, token, GOES, LONG));
    }

    coalescer.observed(NODE, UP_TO_3::containsAll);
    assertThat(three.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    coalescer.observed(NODE, UP_TO_8::containsAll);

    for (Follower follower : later) {
      assertThat(follower.outcome.get(10, TimeUnit.SECONDS))
          .as("not held until the first one is done")
          .isTrue();
    }
    lead.finish(true);
  }

  @Test
  void aLookSeenBeforeTheLeadFailedStillLetsItsFollowersGoOneAfterTheOther() throws Exception {
    wave.set(0);
    WaitCoalescer.Lead lead = lead(NODE, UP_TO_5, GOES);
    Follower seven = follow(NODE, UP_TO_7, GOES, LONG);
    Follower nine = follow(NODE, UP_TO_9, GOES, LONG);
    Follower eight = follow(NODE, UP_TO_8, GOES, LONG);

    coalescer.observed(NODE, UP_TO_9::containsAll);
    lead.finish(false);

    assertThat(seven.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertStillWaiting(nine);
    seven.turn.done();
    assertThat(nine.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    nine.turn.done();
    assertThat(eight.outcome.get(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void eachReplicaLetsItsFollowersGoInWavesOfItsOwn() throws Exception {
    wave.set(1);
    WaitCoalescer.Lead stuck = lead(NODE, UP_TO_7, OWN);
    Follower slow = follow(NODE, UP_TO_7, OWN, LONG);
    Follower behindSlow = follow(NODE, UP_TO_7, OWN, LONG);
    WaitCoalescer.Lead other = lead("replica2", UP_TO_7, OWN);
    Follower onOther = follow("replica2", UP_TO_7, OWN, LONG);

    stuck.finish(true);
    assertThat(slow.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    other.finish(true);

    assertThat(onOther.outcome.get(10, TimeUnit.SECONDS))
        .as("a follower still going on replica1 holds none of replica2's back")
        .isTrue();
    assertStillWaiting(behindSlow);
  }

  private record Follower(
      WaitCoalescer.Follow turn, CompletableFuture<@Nullable Boolean> outcome) {}

  /** A follower on a thread of its own, joined before this returns. */
  /** Joins where the test expects to lead: a follow turn fails the cast. */
  private WaitCoalescer.Lead lead(String node, GtidSet required, Dialect.WaitSight sight) {
    return (WaitCoalescer.Lead) coalescer.join(node, required, sight);
  }

  private Follower follow(GtidSet required, long timeoutNanos) throws Exception {
    return follow(NODE, required, OWN, timeoutNanos);
  }

  private Follower follow(String node, GtidSet required, Dialect.WaitSight sight, long timeoutNanos)
      throws Exception {
    CompletableFuture<WaitCoalescer.Follow> joined = new CompletableFuture<>();
    CompletableFuture<@Nullable Boolean> outcome = new CompletableFuture<>();
    followers.execute(
        () -> {
          WaitCoalescer.Turn turn = coalescer.join(node, required, sight);
          if (!(turn instanceof WaitCoalescer.Follow follow)) {
            joined.completeExceptionally(new AssertionError("led instead of following"));
            return;
          }
          joined.complete(follow);
          outcome.complete(follow.await(timeoutNanos));
        });
    return new Follower(joined.get(10, TimeUnit.SECONDS), outcome);
  }

  /**
   * Seven and nine wait while {@code lead} does; the replica seen up to 7 when its wait ends lets
   * seven go, and nine, still short, leads the next wait.
   */
  private void assertSevenIsLetGoAndNineLeadsNext(
      WaitCoalescer.Lead lead, Follower seven, Follower nine) throws Exception {
    assertStillWaiting(seven);
    assertStillWaiting(nine);

    coalescer.observed(NODE, UP_TO_7::containsAll);
    lead.finish(true);

    assertThat(seven.outcome.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(nine.outcome.get(10, TimeUnit.SECONDS)).isFalse();
    assertThat(nine.turn.promoted()).as("the last one left leads the next wait").isNotNull();
  }

  private static void assertStillWaiting(Follower follower) throws InterruptedException {
    Thread.sleep(Duration.ofMillis(50).toMillis());
    assertThat(follower.outcome).isNotDone();
  }
}

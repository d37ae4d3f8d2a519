package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The near cache's rules, with an in-process store standing in for Redis. */
class NearCacheScopeStoreTests {

  private static final GtidSet OLD = GtidSet.parse(ScopeStoreContract.A + ":1");
  private static final GtidSet NEW = GtidSet.parse(ScopeStoreContract.A + ":1-2");

  private final FakeTicker ticker = new FakeTicker();
  private final ScopeStoreConfig config =
      ScopeStoreConfig.builder().ticker(ticker).localTimeToLive(Duration.ofSeconds(1)).build();
  private final CaffeineScopeStore redis = CaffeineScopeStore.create(config);
  private final AtomicInteger sharedReads = new AtomicInteger();
  private final AtomicBoolean subscribed = new AtomicBoolean(true);
  private Runnable duringNextRead = () -> {};
  private final ScopeStore counted =
      new ScopeStore() {
        @Override
        public ScopeState get(ScopeKey scope) {
          sharedReads.incrementAndGet();
          ScopeState token = redis.get(scope);
          Runnable hook = duringNextRead;
          duringNextRead = () -> {};
          hook.run();
          return token;
        }

        @Override
        public boolean merge(ScopeKey scope, GtidSet gtids) {
          return redis.merge(scope, gtids);
        }

        @Override
        public boolean markDirty(ScopeKey scope, String because) {
          return redis.markDirty(scope, because);
        }

        @Override
        public ScopeStore.Stats stats() {
          return redis.stats();
        }
      };
  private final NearCacheScopeStore near =
      new NearCacheScopeStore(counted, config, subscribed::get, () -> {});
  private final ScopeKey scope = ScopeKey.session("s1");

  @Test
  void servesARepeatedReadFromTheCopyUntilItsLocalTimeToLivePasses() {
    redis.merge(scope, OLD);
    assertThat(near.get(scope).gtids()).isEqualTo(OLD);
    assertThat(near.get(scope).gtids()).isEqualTo(OLD);
    assertThat(sharedReads).hasValue(1);
    assertThat(near.localHits()).isEqualTo(1);

    redis.merge(scope, NEW); // another instance, its message lost
    ticker.advance(Duration.ofMillis(999));
    assertThat(near.get(scope).gtids()).as("within the bound").isEqualTo(OLD);
    ticker.advance(Duration.ofMillis(1));
    assertThat(near.get(scope).gtids()).as("bound reached").isEqualTo(NEW);
  }

  @Test
  void anInvalidationDropsTheCopy() {
    redis.merge(scope, OLD);
    near.get(scope);
    redis.merge(scope, NEW);
    near.invalidate(scope);
    assertThat(near.get(scope).gtids()).isEqualTo(NEW);
  }

  @Test
  void aReadOvertakenByAnInvalidationIsNotKept() {
    // The slow read got OLD; before it returns, another instance merges and its message arrives.
    assertThat(readOvertakenBy(() -> near.invalidate(scope)).gtids()).isEqualTo(OLD);
    assertThat(near.get(scope).gtids()).as("the old read was not cached").isEqualTo(NEW);
    assertThat(sharedReads).hasValue(2);
  }

  @Test
  void aReadOvertakenByAReconnectIsNotKept() {
    readOvertakenBy(near::invalidateAll);
    assertThat(near.get(scope).gtids()).isEqualTo(NEW);
  }

  @Test
  void withoutASubscriptionEveryReadGoesToTheSharedStore() {
    redis.merge(scope, OLD);
    near.get(scope);
    subscribed.set(false);
    redis.merge(scope, NEW);
    assertThat(near.get(scope).gtids()).isEqualTo(NEW);
    assertThat(near.get(scope).gtids()).isEqualTo(NEW);
    assertThat(sharedReads).hasValue(3);
    assertThat(near.localHits()).isZero();
  }

  @Test
  void ownMergesAndDirtyMarksDropTheCopyAtOnce() {
    redis.merge(scope, OLD);
    near.get(scope);
    near.merge(scope, NEW);
    assertThat(near.get(scope).gtids()).isEqualTo(NEW);
    near.markDirty(scope, "capture failed");
    assertThat(near.get(scope).status()).isEqualTo(ScopeState.Status.DIRTY);
  }

  @Test
  void anUnknownScopeIsNeverCached() {
    ScopeStore down =
        new ScopeStore() {
          @Override
          public ScopeState get(ScopeKey key) {
            sharedReads.incrementAndGet();
            return ScopeState.unknown("down");
          }

          @Override
          public boolean merge(ScopeKey key, GtidSet gtids) {
            return false;
          }

          @Override
          public boolean markDirty(ScopeKey key, String because) {
            return false;
          }

          @Override
          public ScopeStore.Stats stats() {
            return new ScopeStore.Stats(0, 0, 0, 0);
          }
        };
    NearCacheScopeStore store = new NearCacheScopeStore(down, config, () -> true, () -> {});
    assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(sharedReads).hasValue(2);
    assertThat(store.stats().unknownReads()).isEqualTo(2);
  }

  /**
   * A read of the scope holding OLD, during which another instance merges NEW and then {@code
   * overtaking} happens; returns what the read got.
   */
  private ScopeState readOvertakenBy(Runnable overtaking) {
    redis.merge(scope, OLD);
    duringNextRead =
        () -> {
          redis.merge(scope, NEW);
          overtaking.run();
        };
    return near.get(scope);
  }
}

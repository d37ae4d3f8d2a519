package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.dialect.WalPosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ScopeStore} must do. Subclasses give two stores on one backend (two instances
 * of a service); the in-process store gives the same one twice.
 */
abstract class ScopeStoreContract {

  static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  static final String B = "0ad6eae9-1111-11e1-9e33-c80aa9429562";

  /** A store on the backend under test. */
  abstract ScopeStore store(ScopeStoreConfig config);

  /**
   * Another store on the same backend, as a second instance of the service would have: by default
   * one more that {@link #store} makes, on a connection of its own.
   */
  ScopeStore secondStore(ScopeStoreConfig config) {
    return store(config);
  }

  /** Lets {@code time} pass for the stores: on their clock, or on the wall clock for Redis. */
  void elapse(Duration time) throws InterruptedException {
    // Redis expires keys by its own clock, which no test can move: only real time passes it.
    Thread.sleep(time.toMillis());
  }

  ScopeStoreConfig config() {
    return ScopeStoreConfig.builder()
        .commandTimeout(Duration.ofSeconds(2))
        .keyPrefix("test:" + getClass().getSimpleName() + ":")
        .build();
  }

  static ScopeKey freshScope() {
    return ScopeKey.session(UUID.randomUUID().toString());
  }

  @Test
  void aScopeWithoutMergesIsKnownAndEmpty() {
    assertThat(store(config()).get(freshScope())).isEqualTo(ScopeState.EMPTY);
  }

  @Test
  void mergesAreSetUnion() {
    ScopeStore store = store(config());
    ScopeKey scope = freshScope();
    assertThat(store.merge(scope, GtidSet.parse(A + ":1-3:7"))).isTrue();
    assertThat(store.merge(scope, GtidSet.parse(A + ":4-5," + B + ":9"))).isTrue();
    assertThat(store.merge(scope, GtidSet.parse(A + ":2"))).isTrue();

    ScopeState token = store.get(scope);
    assertThat(token.status()).isEqualTo(ScopeState.Status.KNOWN);
    assertThat(token.gtids()).isEqualTo(GtidSet.parse(A + ":1-5:7," + B + ":9"));
    assertThat(token.gtids().intervalCount()).as("touching intervals merged").isEqualTo(3);
  }

  @Test
  void postgresPositionsMergeToTheFurthestOfEachTimeline() {
    ScopeStore store = store(config());
    ScopeKey scope = freshScope();
    long system = 7_451_234_567_890_123_456L;
    WalPosition furthest = new WalPosition(system, 1, 0x16_B374_D848L);
    WalPosition next = new WalPosition(system, 2, 0x16_B375_0000L);
    store.merge(scope, furthest.toGtidSet());
    store.merge(scope, new WalPosition(system, 1, 0x16_B300_0000L).toGtidSet());
    store.merge(scope, next.toGtidSet());

    GtidSet merged = store.get(scope).gtids();
    assertThat(merged.intervalCount()).as("one interval per timeline").isEqualTo(2);
    assertThat(WalPosition.in(merged, WalPosition.origin(system, 1))).isEqualTo(furthest);
    assertThat(WalPosition.in(merged, WalPosition.origin(system, 2))).isEqualTo(next);
  }

  @Test
  void taggedGtidsKeepTheirTags() {
    ScopeStore store = store(config());
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1-2:audit:5"));
    // After a tag, every interval belongs to that tag, as MySQL reads it.
    store.merge(scope, GtidSet.parse(A + ":3:audit:6"));
    assertThat(store.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1-3:audit:5-6"));
  }

  @Test
  void anotherInstanceReadsTheMergedScope() {
    ScopeKey scope = ScopeKey.object("order", UUID.randomUUID().toString());
    store(config()).merge(scope, GtidSet.parse(A + ":1-10"));
    assertThat(secondStore(config()).get(scope))
        .isEqualTo(ScopeState.known(GtidSet.parse(A + ":1-10")));
  }

  @Test
  void scopesAreIndependent() {
    ScopeStore store = store(config());
    ScopeKey user = ScopeKey.user(UUID.randomUUID().toString());
    ScopeKey session = freshScope();
    store.merge(user, GtidSet.parse(A + ":1"));
    store.merge(session, GtidSet.parse(B + ":2"));
    assertThat(store.get(user).gtids()).isEqualTo(GtidSet.parse(A + ":1"));
    assertThat(store.get(List.of(user, session)))
        .isEqualTo(ScopeState.known(GtidSet.parse(A + ":1," + B + ":2")));
  }

  @Test
  void aDirtyScopeTakesTheSourcePathOnEveryInstanceAndKeepsItsGtids() {
    ScopeKey scope = freshScope();
    ScopeStore store = store(config());
    store.merge(scope, GtidSet.parse(A + ":1-3"));
    assertThat(store.markDirty(scope, "capture failed")).isTrue();
    store.merge(scope, GtidSet.parse(A + ":4"));

    ScopeState token = secondStore(config()).get(scope);
    assertThat(token.status()).isEqualTo(ScopeState.Status.DIRTY);
    assertThat(token.requiresSource()).isTrue();
    assertThat(token.because()).isEqualTo("capture failed");
    assertThat(token.gtids()).isEqualTo(GtidSet.parse(A + ":1-4"));
  }

  @Test
  void aScopePastTheIntervalLimitIsDirtyInsteadOfWeaker() {
    ScopeStoreConfig limited = config().toBuilder().maxIntervals(3).build();
    ScopeStore store = store(limited);
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1:3:5"));
    assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.KNOWN);

    store.merge(scope, GtidSet.parse(A + ":7"));
    ScopeState token = store.get(scope);
    assertThat(token.status()).isEqualTo(ScopeState.Status.DIRTY);
    assertThat(token.because()).contains("more than 3 GTID intervals");
  }

  @Test
  void aShortDirtyMarkDoesNotEndAnOverflowEarly() throws InterruptedException {
    ScopeStoreConfig config =
        config().toBuilder()
            .maxIntervals(1)
            .timeToLive(Duration.ofMinutes(1))
            .dirtyTimeToLive(Duration.ofMillis(1))
            .build();
    ScopeStore store = store(config);
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1:3"));
    assertThat(store.markDirty(scope, "capture failed")).isTrue();
    elapse(Duration.ofMillis(50));

    ScopeState token = secondStore(config).get(scope);
    assertThat(token.requiresSource())
        .as("the overflowed GTIDs stay required for the time to live, not the mark's")
        .isTrue();
  }

  @Test
  void concurrentMergesFromTwoInstancesLoseNothing() throws Exception {
    ScopeKey scope = freshScope();
    ScopeStoreConfig roomy = config().toBuilder().maxIntervals(1_000).build();
    List<ScopeStore> stores = List.of(store(roomy), secondStore(roomy));
    // 1 000 distinct GTIDs, every other one from a second source, in shuffled order: no two
    // merges touch, so a lost update would leave a hole.
    List<GtidSet> merges = new ArrayList<>();
    for (int gno = 1; gno <= 1_000; gno++) {
      merges.add(GtidSet.parse((gno % 2 == 0 ? A : B) + ":" + (gno * 2)));
    }
    Collections.shuffle(merges);
    int threadsPerStore = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threadsPerStore * stores.size());
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    int workers = threadsPerStore * stores.size();
    try {
      for (int w = 0; w < workers; w++) {
        ScopeStore store = stores.get(w % stores.size());
        int worker = w;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  int stored = 0;
                  for (int i = worker; i < merges.size(); i += workers) {
                    stored += store.merge(scope, merges.get(i)) ? 1 : 0;
                  }
                  return stored;
                }));
      }
      start.countDown();
      int stored = 0;
      for (Future<Integer> result : results) {
        stored += result.get(60, TimeUnit.SECONDS);
      }
      assertThat(stored).isEqualTo(1_000);
    } finally {
      pool.shutdownNow();
    }

    GtidSet all = merges.stream().reduce(GtidSet.EMPTY, GtidSet::union);
    ScopeState token = stores.get(0).get(scope);
    assertThat(token.status()).isEqualTo(ScopeState.Status.KNOWN);
    assertThat(token.gtids().containsAll(all)).isTrue();
    assertThat(token.gtids()).isEqualTo(all);
  }
}

package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Redis killed or frozen mid-run: calls stay bounded, scopes turn unknown, and recover. */
class RedisOutageIT {

  private static final String A = ScopeStoreContract.A;
  private static final Duration TIMEOUT = Duration.ofMillis(20);
  // Room for a loaded two-core machine's scheduling, far below any request budget.
  private static final Duration SLACK = Duration.ofMillis(150);

  private final RedisClients clients = new RedisClients();
  private RedisServer redis;
  private RedisScopeStore store;

  @BeforeEach
  void start() {
    redis = RedisServer.start();
    store =
        RedisScopeStore.create(
            clients.connect(redis), ScopeStoreConfig.builder().commandTimeout(TIMEOUT).build());
  }

  @AfterEach
  void stop() throws Exception {
    clients.close();
    redis.close();
  }

  @Test
  void killedRedisMakesScopesUnknownWithinTheTimeoutAndRecoversAfterRestart() {
    ScopeKey scope = ScopeKey.session(UUID.randomUUID().toString());
    assertThat(store.merge(scope, GtidSet.parse(A + ":1-5"))).isTrue();
    assertThat(store.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1-5"));

    redis.kill();
    long slowest = 0;
    for (int i = 0; i < 50; i++) {
      long started = System.nanoTime();
      ScopeState token = store.get(scope);
      boolean merged = store.merge(scope, GtidSet.parse(A + ":" + (10 + i)));
      slowest = Math.max(slowest, System.nanoTime() - started);
      assertThat(token.status()).isEqualTo(ScopeState.Status.UNKNOWN);
      assertThat(token.requiresSource()).isTrue();
      assertThat(merged).isFalse();
    }
    assertThat(Duration.ofNanos(slowest)).isLessThan(TIMEOUT.multipliedBy(2).plus(SLACK));
    ScopeStore.Stats down = store.stats();
    assertThat(down.unknownReads()).isEqualTo(50);
    assertThat(down.failedWrites()).isEqualTo(50);

    redis.restart();
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(30), () -> store.merge(scope, GtidSet.parse(A + ":100"))))
        .as("store works again once Lettuce reconnected")
        .isTrue();
    // Redis ran without persistence: what was merged before the crash is gone. The first reads
    // after a reconnect may still run past the 20 ms command timeout (the script is loaded anew).
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(5),
                () -> store.get(scope).equals(ScopeState.known(GtidSet.parse(A + ":100")))))
        .isTrue();
  }

  @Test
  void aNearCacheStopsServingCopiesWhenRedisDiesAndForgetsThemAfterRestart() {
    ScopeStoreConfig config =
        ScopeStoreConfig.builder()
            .commandTimeout(TIMEOUT)
            .ticker(new FakeTicker())
            .localTimeToLive(Duration.ofDays(1))
            .build();
    NearCacheScopeStore near =
        NearCacheScopeStore.create(
            RedisScopeStore.create(clients.connect(redis), config),
            clients.connectPubSub(redis),
            config);
    ScopeKey scope = ScopeKey.session(UUID.randomUUID().toString());
    near.merge(scope, GtidSet.parse(A + ":1"));
    NearCopies.awaitCopyInUse(near, scope);

    redis.kill();
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(5), () -> near.get(scope).status() == ScopeState.Status.UNKNOWN))
        .isTrue();
    long hits = near.localHits();
    assertThat(near.get(scope).status()).isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(near.localHits()).isEqualTo(hits);

    redis.restart();
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(30), () -> near.get(scope).status() == ScopeState.Status.KNOWN))
        .isTrue();
    assertThat(near.get(scope))
        .as("the copy from before the crash was dropped")
        .isEqualTo(ScopeState.EMPTY);
  }

  @Test
  void frozenRedisTimesOutWithinTheCommandTimeout() {
    ScopeKey scope = ScopeKey.user(UUID.randomUUID().toString());
    store.merge(scope, GtidSet.parse(A + ":1"));
    redis.freeze();
    try {
      for (int i = 0; i < 10; i++) {
        long started = System.nanoTime();
        ScopeState token = store.get(scope);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(token.status()).isEqualTo(ScopeState.Status.UNKNOWN);
        assertThat(token.because()).contains("no reply within 20 ms");
        assertThat(took).isGreaterThanOrEqualTo(TIMEOUT).isLessThan(TIMEOUT.plus(SLACK));
      }
    } finally {
      redis.thaw();
    }
    assertThat(store.stats().unknownReads()).isEqualTo(10);
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(10), () -> !store.get(scope).requiresSource()))
        .isTrue();
    assertThat(store.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1"));
  }
}

package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.api.StatefulRedisConnection;
import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis that evicts past 1 MiB more than it holds at the start ({@code maxmemory-policy
 * volatile-ttl}: keys with an expiry, the soonest to expire first, as an application cache sharing
 * the Redis would fill it): an evicted scope never reads as known and clean, nor comes back weaker
 * from a later write.
 */
class RedisEvictionIT {

  private static final String A = ScopeStoreContract.A;
  private static final String FILLER = "x".repeat(1024);

  private final RedisClients clients = new RedisClients();
  private RedisServer redis;
  private StatefulRedisConnection<String, String> filler;
  private int fillers;

  @BeforeEach
  void start() {
    redis = RedisServer.start();
    evictAbove(redis);
    filler = clients.connect(redis);
  }

  @AfterEach
  void stop() throws Exception {
    clients.close();
    redis.close();
  }

  private RedisScopeStore store(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(redis), config);
  }

  private static ScopeStoreConfig config() {
    return ScopeStoreConfig.builder().commandTimeout(Duration.ofSeconds(2)).build();
  }

  @Test
  void anOverflowedScopeWhoseKeyIsEvictedStillTakesTheSource() throws Exception {
    RedisScopeStore store = store(config().toBuilder().maxIntervals(3).build());
    ScopeKey scope = ScopeKey.session(UUID.randomUUID().toString());
    assertThat(store.get(scope)).as("nothing evicted yet").isEqualTo(ScopeState.EMPTY);
    store.merge(scope, GtidSet.parse(A + ":1:3:5:7"));
    assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.DIRTY);

    fillUntil(() -> !"1".equals(redis.command("EXISTS", store.key(scope))));

    for (ScopeStore instance : List.of(store, store(config()))) {
      ScopeState token = instance.get(scope);
      assertThat(token.status()).isEqualTo(ScopeState.Status.UNKNOWN);
      assertThat(token.requiresSource()).isTrue();
      assertThat(token.because()).contains("evicted");
    }
    assertThat(store.get(ScopeKey.session(UUID.randomUUID().toString())).requiresSource())
        .as("after an eviction, no missing scope can be told from an evicted one")
        .isTrue();
  }

  @Test
  void aScopeEvictedAndWrittenAgainIsDirtyInsteadOfHoldingOnlyTheNewGtids() throws Exception {
    RedisScopeStore store = store(config());
    ScopeKey merged = ScopeKey.session(UUID.randomUUID().toString());
    ScopeKey marked = ScopeKey.session(UUID.randomUUID().toString());
    store.merge(merged, GtidSet.parse(A + ":1-5"));
    store.merge(marked, GtidSet.parse(A + ":1-5"));

    fillUntil(
        () ->
            !"1".equals(redis.command("EXISTS", store.key(merged)))
                && !"1".equals(redis.command("EXISTS", store.key(marked))));
    makeRoom();

    assertThat(store.merge(merged, GtidSet.parse(A + ":6"))).isTrue();
    ScopeState token = store(config()).get(merged);
    assertThat(token.status()).isEqualTo(ScopeState.Status.DIRTY);
    assertThat(token.because()).isEqualTo(RedisScopeStore.EVICTED);
    assertThat(token.gtids()).isEqualTo(GtidSet.parse(A + ":6"));

    // A short dirty mark on an evicted scope lasts as long as the eviction's.
    ScopeStore shortMarks =
        store(config().toBuilder().dirtyTimeToLive(Duration.ofMillis(1)).build());
    assertThat(shortMarks.markDirty(marked, "capture failed")).isTrue();
    Thread.sleep(50); // past the 1 ms mark on Redis's own clock, which no test can move
    assertThat(store.get(marked).status()).isEqualTo(ScopeState.Status.DIRTY);
  }

  @Test
  void anEvictionIsForgottenOneTimeToLiveAfterItWasSeen() throws Exception {
    ScopeStoreConfig brief =
        config().toBuilder()
            .timeToLive(Duration.ofSeconds(1))
            .dirtyTimeToLive(Duration.ofMillis(500))
            .build();
    RedisScopeStore store = store(brief);
    ScopeKey scope = ScopeKey.session(UUID.randomUUID().toString());
    fillUntil(() -> evictedKeys() > 0);
    // Nothing evicts any more.
    redis.command("CONFIG", "SET", "maxmemory", "0");

    assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(20), () -> store.get(scope).equals(ScopeState.EMPTY)))
        .as("a time to live after the eviction was first seen, a missing scope is empty again")
        .isTrue();
    store.merge(scope, GtidSet.parse(A + ":9"));
    assertThat(store.get(scope)).isEqualTo(ScopeState.known(GtidSet.parse(A + ":9")));

    ScopeKey other = ScopeKey.session(UUID.randomUUID().toString());
    redis.command("DEL", store.evictionsKey(other));
    assertThat(store.get(other).status())
        .as("a lost watermark counts as an eviction now")
        .isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(20), () -> store.get(other).equals(ScopeState.EMPTY)))
        .isTrue();
    redis.command("CONFIG", "RESETSTAT");
    assertThat(store.get(other).status())
        .as("a reset counter counts as an eviction now")
        .isEqualTo(ScopeState.Status.UNKNOWN);
  }

  @Test
  void aFullRedisThatDoesNotEvictStillAnswersReadsAndRefusesMerges() {
    redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    RedisScopeStore store = store(config());
    ScopeKey kept = ScopeKey.session(UUID.randomUUID().toString());
    store.merge(kept, GtidSet.parse(A + ":1-3"));
    // Below what Redis holds already: every write that needs memory is refused.
    redis.command("CONFIG", "SET", "maxmemory", "1");

    assertThat(store.get(kept)).isEqualTo(ScopeState.known(GtidSet.parse(A + ":1-3")));
    ScopeKey fresh = ScopeKey.session(UUID.randomUUID().toString());
    assertThat(store.get(fresh)).as("read without writing").isEqualTo(ScopeState.EMPTY);
    assertThat(store.merge(fresh, GtidSet.parse(A + ":4"))).isFalse();
    assertThat(store.merge(kept, GtidSet.parse(A + ":9"))).isFalse();
    assertThat(store.markDirty(kept, "capture failed")).isFalse();
    assertThat(store.stats().failedWrites()).isEqualTo(3);
    assertThat(store.get(kept))
        .as("a refused write leaves the scope as it was")
        .isEqualTo(ScopeState.known(GtidSet.parse(A + ":1-3")));
  }

  @Test
  void onAClusterEachNodeTellsItsOwnEvictions() throws Exception {
    try (RedisCluster cluster = RedisCluster.start()) {
      cluster.nodes().forEach(RedisEvictionIT::evictAbove);
      RedisScopeStore store = RedisScopeStore.create(clients.connect(cluster), config());
      List<ScopeKey> scopes = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        ScopeKey scope = ScopeKey.object("order", UUID.randomUUID().toString());
        assertThat(store.merge(scope, GtidSet.parse(A + ":1-5"))).isTrue();
        scopes.add(scope);
      }
      RedisServer full = cluster.nodes().get(0);
      ScopeKey evicted =
          scopes.stream().filter(scope -> holds(full, store.key(scope))).findFirst().orElseThrow();
      // Fill the first node only, through keys in the slots it serves.
      String tag = store.key(evicted).substring(store.key(evicted).indexOf('{'));
      StatefulRedisConnection<String, String> node = clients.connect(full);
      int written = 0;
      while (holds(full, store.key(evicted))) {
        List<CompletableFuture<String>> sets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          sets.add(
              node.async()
                  .setex("filler:" + tag + ":" + written++, 86_400, FILLER)
                  .toCompletableFuture());
        }
        CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(written).isLessThan(100_000);
      }

      assertThat(store.get(evicted).status()).isEqualTo(ScopeState.Status.UNKNOWN);
      for (ScopeKey scope : scopes) {
        if (holds(cluster.nodes().get(1), store.key(scope))) {
          assertThat(store.get(scope))
              .as("a scope on a node that evicted nothing")
              .isEqualTo(ScopeState.known(GtidSet.parse(A + ":1-5")));
        }
      }
      store.merge(evicted, GtidSet.parse(A + ":6"));
      assertThat(store.get(evicted).status()).isEqualTo(ScopeState.Status.DIRTY);
    }
  }

  /** Writes 1 KiB keys expiring in a day, 100 at a time, until {@code done}. */
  private void fillUntil(BooleanSupplier done) throws Exception {
    while (!done.getAsBoolean()) {
      List<CompletableFuture<String>> sets = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        sets.add(filler.async().setex("filler:" + fillers++, 86_400, FILLER).toCompletableFuture());
      }
      CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
      assertThat(fillers).as("keys written without the condition").isLessThan(100_000);
    }
  }

  /**
   * Deletes the last fillers written: at the memory limit, a scope written next would be the first
   * key evicted again (the shortest time to live), before the test reads it back.
   */
  private void makeRoom() {
    for (int i = Math.max(0, fillers - 200); i < fillers; i++) {
      redis.command("DEL", "filler:" + i);
    }
  }

  /** Lets the server hold 1 MiB more than it does now, evicting by volatile-ttl past that. */
  private static void evictAbove(RedisServer server) {
    long used = infoField(server, "memory", "used_memory");
    server.command("CONFIG", "SET", "maxmemory", Long.toString(used + (1 << 20)));
    server.command("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
  }

  private static long infoField(RedisServer server, String section, String field) {
    String info = String.valueOf(server.command("INFO", section));
    for (String line : info.split("\r\n")) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1));
      }
    }
    throw new AssertionError("INFO " + section + " without " + field + ": " + info);
  }

  /** Whether the cluster node serves the key's slot and holds the key. */
  private static boolean holds(RedisServer node, String key) {
    try {
      return "1".equals(node.command("EXISTS", key));
    } catch (TestkitException e) {
      if (String.valueOf(e.getMessage()).contains("MOVED")) {
        return false;
      }
      throw e;
    }
  }

  private long evictedKeys() {
    return infoField(redis, "stats", "evicted_keys");
  }
}

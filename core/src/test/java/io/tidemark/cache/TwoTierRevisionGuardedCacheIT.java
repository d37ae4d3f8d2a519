package io.tidemark.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.RedisClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract for Caffeine in front of Redis, and two instances that miss invalidations. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoTierRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension final RedisClients clients = new RedisClients();

  @Override
  TwoTierRevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return TwoTierRevisionGuardedCache.of(
        CaffeineRevisionGuardedCache.create(config),
        RedisRevisionGuardedCache.create(clients.connect(), ValueCodec.text(), config));
  }

  @Test
  void aDroppedInvalidationNeverServesAnOlderRevisionToAReadThatRequiresANewerOne() {
    TwoTierRevisionGuardedCache<String> first = cache(config());
    TwoTierRevisionGuardedCache<String> second = cache(config());
    String key = freshKey();
    first.put(key, 1, "v1");
    assertThat(second.get(key)).as("second caches v1 locally").contains(new CachedValue<>(1, "v1"));

    // The first instance writes v2; the message that would invalidate the second is lost.
    first.put(key, 2, "v2");
    assertThat(second.get(key, 2)).contains(new CachedValue<>(2, "v2"));
    assertThat(second.get(key))
        .as("the local tier moved forward")
        .contains(new CachedValue<>(2, "v2"));
    assertThat(second.put(key, 1, "v1")).as("slow reader on the second instance").isFalse();
    assertThat(second.get(key)).contains(new CachedValue<>(2, "v2"));

    // A delete on the first instance, its invalidation lost again.
    first.delete(key, 3);
    assertThat(second.get(key)).as("no token: the stale local v2 may still serve").isPresent();
    assertThat(second.get(key, 3)).as("a read requiring the delete misses").isEmpty();
    assertThat(second.put(key, 2, "v2")).as("slow reader after the delete").isFalse();
    assertThat(second.get(key)).as("tombstone reached the local tier").isEmpty();
    assertThat(first.get(key)).isEmpty();
  }

  @Test
  void aStalePutRefusedByRedisNeverReachesTheLocalTier() {
    TwoTierRevisionGuardedCache<String> first = cache(config());
    TwoTierRevisionGuardedCache<String> second = cache(config());
    String key = freshKey();
    first.put(key, 5, "v5");
    // Second has nothing locally; its slow reader's v4 is refused by Redis and not kept locally.
    assertThat(second.put(key, 4, "v4")).isFalse();
    assertThat(second.get(key)).contains(new CachedValue<>(5, "v5"));
  }

  @Test
  void anInvalidationMovesAnotherInstanceForwardForReadsWithoutAToken() {
    TwoTierRevisionGuardedCache<String> first = cache(config());
    TwoTierRevisionGuardedCache<String> second = cache(config());
    String key = freshKey();
    first.put(key, 1, "v1");
    second.get(key);
    first.put(key, 2, "v2");
    assertThat(second.get(key)).contains(new CachedValue<>(1, "v1"));
    second.invalidate(key, 2);
    assertThat(second.get(key)).contains(new CachedValue<>(2, "v2"));
  }
}

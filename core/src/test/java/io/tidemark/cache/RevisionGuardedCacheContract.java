package io.tidemark.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What every {@link RevisionGuardedCache} must do. */
abstract class RevisionGuardedCacheContract {

  abstract RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config);

  RevisionGuardedCacheConfig config() {
    return RevisionGuardedCacheConfig.builder()
        .commandTimeout(Duration.ofSeconds(2))
        .keyPrefix("test:" + getClass().getSimpleName() + ":")
        .build();
  }

  static String freshKey() {
    return "order:" + UUID.randomUUID();
  }

  @Test
  void storesOnlyNewerRevisions() {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    assertThat(cache.put(key, 2, "two")).isTrue();
    assertThat(cache.put(key, 1, "one")).isFalse();
    assertThat(cache.put(key, 2, "two again")).isFalse();
    assertThat(cache.get(key)).contains(new CachedValue<>(2, "two"));
    assertThat(cache.put(key, 3, "three")).isTrue();
    assertThat(cache.get(key)).contains(new CachedValue<>(3, "three"));
  }

  @Test
  void missesWhenTheEntryIsOlderThanRequired() {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    cache.put(key, 4, "four");
    assertThat(cache.get(key, 4)).contains(new CachedValue<>(4, "four"));
    assertThat(cache.get(key, 5)).isEmpty();
    assertThat(cache.get(freshKey(), 0)).isEmpty();
  }

  @Test
  void aSlowReadersOldValueIsRefusedAfterANewerPutAndAfterADelete() {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    // The slow reader loaded revision 1 from the database, then stalled.
    String loadedBySlowReader = "v1";
    assertThat(cache.put(key, 2, "v2")).as("writer").isTrue();
    assertThat(cache.put(key, 1, loadedBySlowReader)).as("slow reader, late").isFalse();
    assertThat(cache.get(key)).contains(new CachedValue<>(2, "v2"));

    assertThat(cache.delete(key, 3)).isTrue();
    assertThat(cache.get(key)).as("tombstone is a miss").isEmpty();
    assertThat(cache.put(key, 2, "v2")).as("slow reader after the delete").isFalse();
    assertThat(cache.put(key, 1, loadedBySlowReader)).isFalse();
    assertThat(cache.get(key)).isEmpty();

    assertThat(cache.put(key, 4, "v4")).as("a newer write after the delete").isTrue();
    assertThat(cache.get(key, 4)).contains(new CachedValue<>(4, "v4"));
    assertThat(cache.delete(key, 4)).as("delete no newer than the value").isFalse();
  }

  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @Test
  void anEntryThatReflectsALostWriteIsNeverServed() {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    assertThat(cache.put(key, 3, "three", GtidSet.parse(A + ":1-3"))).isTrue();

    assertThat(cache.get(key, 0, GtidSet.parse(A + ":1-2"), GtidSet.parse(A + ":3"))).isEmpty();
    assertThat(cache.get(key, 0, GtidSet.parse(A + ":1-2"), GtidSet.parse(A + ":9")))
        .contains(new CachedValue<>(3, "three"));
  }

  @Test
  void aLookupUnderATokenAcceptsOnlyAnEntryThatReflectsIt() {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    GtidSet beforeTheUpdate = GtidSet.parse(A + ":1-5");
    GtidSet withTheUpdate = GtidSet.parse(A + ":1-7");

    assertThat(cache.put(key, 2, "two", beforeTheUpdate)).isTrue();
    assertThat(cache.get(key, 0, GtidSet.parse(A + ":3"))).contains(new CachedValue<>(2, "two"));
    assertThat(cache.get(key, 0, withTheUpdate)).as("cached before the token's write").isEmpty();
    assertThat(cache.get(key)).as("no token: as before").contains(new CachedValue<>(2, "two"));

    // Read through at the same revision, at a state that holds the token: it replaces.
    assertThat(cache.put(key, 2, "two", withTheUpdate)).isTrue();
    assertThat(cache.get(key, 0, withTheUpdate)).contains(new CachedValue<>(2, "two"));
    assertThat(cache.put(key, 2, "two", withTheUpdate)).as("nothing new").isFalse();
    // An older revision never replaces, whatever state it claims.
    assertThat(cache.put(key, 1, "one", GtidSet.parse(A + ":1-100"))).isFalse();
    assertThat(cache.put(key, 3, "three", withTheUpdate)).isTrue();
    assertThat(cache.get(key, 3, withTheUpdate)).contains(new CachedValue<>(3, "three"));

    assertThat(cache.delete(key, 4)).isTrue();
    assertThat(cache.put(key, 4, "four", GtidSet.parse(A + ":1-9")))
        .as("at the tombstone")
        .isFalse();
    assertThat(cache.get(key, 0, GtidSet.EMPTY)).isEmpty();
  }

  @Test
  void concurrentPutsKeepTheHighestRevision() throws Exception {
    RevisionGuardedCache<String> cache = cache(config());
    String key = freshKey();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int t = 0; t < 4; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int v = 200 - thread; v > 0; v -= 4) {
                    cache.put(key, v, "v" + v);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(cache.get(key)).contains(new CachedValue<>(200, "v200"));
  }

  @Test
  void refusesRevisionsOutOfRange() {
    RevisionGuardedCache<String> cache = cache(config());
    assertThatThrownBy(() -> cache.put("k", -1, "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> cache.delete("k", RevisionGuardedCache.MAX_REVISION + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(cache.put(freshKey(), RevisionGuardedCache.MAX_REVISION, "max")).isTrue();
  }
}

package io.tidemark.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaffeineRevisionGuardedCacheTests extends RevisionGuardedCacheContract {

  private final FakeTicker ticker = new FakeTicker();

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return CaffeineRevisionGuardedCache.create(config.toBuilder().ticker(ticker).build());
  }

  @Test
  void tombstonesLiveForTheirOwnTimeToLive() {
    RevisionGuardedCache<String> cache =
        cache(
            config().toBuilder()
                .timeToLive(Duration.ofMinutes(10))
                .tombstoneTimeToLive(Duration.ofMinutes(1))
                .build());
    cache.put("a", 1, "one");
    cache.delete("b", 5);
    ticker.advance(Duration.ofSeconds(59));
    assertThat(cache.put("b", 4, "late")).isFalse();
    ticker.advance(Duration.ofSeconds(2));
    assertThat(cache.put("b", 4, "later than the tombstone lives")).isTrue();
    assertThat(cache.get("a")).contains(new CachedValue<>(1, "one"));
    ticker.advance(Duration.ofMinutes(10));
    assertThat(cache.get("a")).isEmpty();
  }

  @Test
  void aKeyEvictedForSizeStillRefusesOlderPutsAndItsDeletionStillHolds() {
    RevisionGuardedCache<String> cache = cache(config().toBuilder().maximumSize(1).build());
    cache.put("k", 6, "six");
    cache.delete("d", 7);
    for (int i = 0; i < 50; i++) {
      cache.put("other" + i, 1, "one");
    }
    assertThat(cache.get("k")).as("evicted for size").isEmpty();

    assertThat(cache.put("k", 5, "a slow reader's older copy")).isFalse();
    assertThat(cache.put("d", 6, "the deleted row")).isFalse();
    assertThat(cache.get("k")).isEmpty();
    assertThat(cache.put("k", 7, "newer")).isTrue();
    assertThat(cache.get("k", 7)).contains(new CachedValue<>(7, "newer"));
  }

  @Test
  void theGuardOfAnEvictedKeyEndsWhenItsEntryWouldHaveExpired() {
    RevisionGuardedCache<String> cache =
        cache(config().toBuilder().maximumSize(1).timeToLive(Duration.ofMinutes(1)).build());
    cache.put("k", 6, "six");
    for (int i = 0; i < 50; i++) {
      cache.put("other" + i, 1, "one");
    }
    ticker.advance(Duration.ofSeconds(61));

    assertThat(cache.put("k", 1, "a new row after the old one expired")).isTrue();
  }

  @Test
  void invalidationDropsOnlyOlderEntries() {
    CaffeineRevisionGuardedCache<String> cache =
        CaffeineRevisionGuardedCache.create(config().toBuilder().ticker(ticker).build());
    cache.put("k", 3, "three");
    cache.invalidate("k", 3);
    assertThat(cache.get("k")).contains(new CachedValue<>(3, "three"));
    cache.invalidate("k", 4);
    assertThat(cache.get("k")).isEmpty();
  }
}

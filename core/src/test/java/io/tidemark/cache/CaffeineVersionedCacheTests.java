package io.tidemark.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaffeineVersionedCacheTests extends VersionedCacheContract {

  private final FakeTicker ticker = new FakeTicker();

  @Override
  VersionedCache<String> cache(VersionedCacheConfig config) {
    return CaffeineVersionedCache.create(config.toBuilder().ticker(ticker).build());
  }

  @Test
  void tombstonesLiveForTheirOwnTimeToLive() {
    VersionedCache<String> cache =
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
    assertThat(cache.get("a")).contains(new Versioned<>(1, "one"));
    ticker.advance(Duration.ofMinutes(10));
    assertThat(cache.get("a")).isEmpty();
  }

  @Test
  void invalidationDropsOnlyOlderEntries() {
    CaffeineVersionedCache<String> cache =
        CaffeineVersionedCache.create(config().toBuilder().ticker(ticker).build());
    cache.put("k", 3, "three");
    cache.invalidate("k", 3);
    assertThat(cache.get("k")).contains(new Versioned<>(3, "three"));
    cache.invalidate("k", 4);
    assertThat(cache.get("k")).isEmpty();
  }
}

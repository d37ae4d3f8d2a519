package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.cache.CachedValue;
import io.tidemark.cache.RevisionGuardedCache;
import io.tidemark.cache.RevisionGuardedCacheConfig;
import io.tidemark.cache.ValueCodec;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Prints merge and guarded-put latency against a real Redis; asserts only correctness. */
@ExtendWith(TestkitExtension.class)
class StoreFiguresIT {

  private static final int WARMUP = 500;
  private static final int RUNS = 3_000;

  @Test
  void printsMergeAndGuardedPutLatency(RedisServer redis) throws Exception {
    try (RedisClients clients = new RedisClients()) {
      RedisScopeStore store =
          RedisScopeStore.create(
              clients.connect(redis),
              ScopeStoreConfig.builder().commandTimeout(Duration.ofSeconds(1)).build());
      RevisionGuardedCache<String> cache =
          RevisionGuardedCache.redis(
              clients.connect(redis),
              ValueCodec.text(),
              RevisionGuardedCacheConfig.builder().commandTimeout(Duration.ofSeconds(1)).build());
      ScopeKey scope = ScopeKey.session(UUID.randomUUID().toString());
      String uuid = ScopeStoreContract.A;
      String key = "order:" + UUID.randomUUID();

      long[] merges = new long[RUNS];
      long[] puts = new long[RUNS];
      for (int i = 0; i < WARMUP + RUNS; i++) {
        // Consecutive GNOs, as one session's writes on a quiet source: each merge extends the
        // scope's one interval, and each put is one version newer.
        GtidSet gtids = GtidSet.parse(uuid + ":" + (i + 1));
        long started = System.nanoTime();
        assertThat(store.merge(scope, gtids)).isTrue();
        long merged = System.nanoTime();
        assertThat(cache.put(key, i + 1, "order-row-" + i)).isTrue();
        long put = System.nanoTime();
        if (i >= WARMUP) {
          merges[i - WARMUP] = merged - started;
          puts[i - WARMUP] = put - merged;
        }
      }
      assertThat(store.get(scope).gtids()).isEqualTo(GtidSet.parse(uuid + ":1-" + (WARMUP + RUNS)));
      assertThat(cache.get(key, WARMUP + RUNS))
          .contains(new CachedValue<>(WARMUP + RUNS, "order-row-" + (WARMUP + RUNS - 1)));
      assertThat(cache.put(key, 1, "stale")).isFalse();
      assertThat(RevisionGuardedCache.MAX_REVISION).isPositive();

      System.out.printf(
          "tidemark-figures: redis %s, %d runs: scope merge p50 %s / p99 %s; guarded put p50 %s"
              + " / p99 %s%n",
          redis.version(),
          RUNS,
          micros(merges, 0.50),
          micros(merges, 0.99),
          micros(puts, 0.50),
          micros(puts, 0.99));
    }
  }

  private static String micros(long[] nanos, double quantile) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    long value = sorted[(int) Math.ceil(quantile * sorted.length) - 1];
    return String.format("%.0f µs", value / 1_000.0);
  }
}

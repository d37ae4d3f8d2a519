package io.tidemark.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.RedisClients;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redis tier with Redis frozen and killed: misses and refused writes, bounded and counted. */
class RedisCacheOutageIT {

  private static final Duration TIMEOUT = Duration.ofMillis(20);
  private static final Duration SLACK = Duration.ofMillis(150);

  private final RedisClients clients = new RedisClients();
  private RedisServer redis;
  private RedisRevisionGuardedCache<String> shared;
  private TwoTierRevisionGuardedCache<String> twoTier;

  @BeforeEach
  void start() {
    redis = RedisServer.start();
    RevisionGuardedCacheConfig config =
        RevisionGuardedCacheConfig.builder().commandTimeout(TIMEOUT).build();
    shared = RedisRevisionGuardedCache.create(clients.connect(redis), ValueCodec.text(), config);
    twoTier = TwoTierRevisionGuardedCache.of(CaffeineRevisionGuardedCache.create(config), shared);
  }

  @AfterEach
  void stop() throws Exception {
    clients.close();
    redis.close();
  }

  @Test
  void aFrozenRedisIsAMissWithinTheTimeoutAndADeleteStillHoldsLocally() {
    twoTier.put("order:1", 1, "v1");
    redis.freeze();
    try {
      long started = System.nanoTime();
      assertThat(shared.get("order:1")).isEmpty();
      assertThat(twoTier.put("order:1", 2, "v2")).as("not stored: Redis did not answer").isFalse();
      assertThat(twoTier.get("order:1", 2)).isEmpty();
      assertThat(twoTier.delete("order:1", 3)).isFalse();
      assertThat(twoTier.get("order:1")).as("this instance never serves what it deleted").isEmpty();
      assertThat(twoTier.put("order:1", 2, "v2")).isFalse();
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(took).isLessThan(TIMEOUT.multipliedBy(6).plus(SLACK));
    } finally {
      redis.thaw();
    }
    assertThat(shared.failures()).isEqualTo(5);
  }

  @Test
  void aKilledRedisRecoversAfterRestart() {
    redis.kill();
    assertThat(shared.put("order:2", 1, "v1")).isFalse();
    assertThat(shared.get("order:2")).isEmpty();
    assertThat(shared.failures()).isEqualTo(2);
    redis.restart();
    assertThat(
            RedisClients.eventually(Duration.ofSeconds(30), () -> shared.put("order:2", 1, "v1")))
        .isTrue();
    assertThat(shared.get("order:2", 1)).contains(new CachedValue<>(1, "v1"));
  }
}

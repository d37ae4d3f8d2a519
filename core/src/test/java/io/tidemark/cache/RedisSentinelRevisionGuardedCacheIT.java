package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.redis.RedisSentinel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSentinelRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension final RedisClients clients = new RedisClients();
  private RedisSentinel sentinel;

  @BeforeAll
  void connect(RedisSentinel sentinel) {
    this.sentinel = sentinel;
  }

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(sentinel), ValueCodec.text(), config);
  }
}

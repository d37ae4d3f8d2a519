package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension final RedisClients clients = new RedisClients();
  private RedisServer redis;

  @BeforeAll
  void connect(RedisServer redis) {
    this.redis = redis;
  }

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(redis), ValueCodec.text(), config);
  }
}

package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisSentinel;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisSentinelRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();
  private final RedisSentinel sentinel = SharedServers.redisSentinel();

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(sentinel), ValueCodec.text(), config);
  }
}

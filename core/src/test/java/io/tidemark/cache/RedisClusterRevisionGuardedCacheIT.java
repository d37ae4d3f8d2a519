package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisCluster;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisClusterRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();
  private final RedisCluster cluster = SharedServers.redisCluster();

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(cluster), ValueCodec.text(), config);
  }
}

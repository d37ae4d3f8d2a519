package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.redis.RedisCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension final RedisClients clients = new RedisClients();
  private RedisCluster cluster;

  @BeforeAll
  void connect(RedisCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(cluster), ValueCodec.text(), config);
  }
}

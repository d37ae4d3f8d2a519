package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.RedisCluster;
import io.tidemark.testkit.TestkitExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  private final RedisClients clients = new RedisClients();
  private RedisCluster cluster;

  @BeforeAll
  void connect(RedisCluster cluster) {
    this.cluster = cluster;
  }

  @AfterAll
  void close() throws Exception {
    clients.close();
  }

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(cluster), ValueCodec.text(), config);
  }
}

package io.tidemark.cache;

import io.tidemark.RedisClients;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension final RedisClients clients = new RedisClients();

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(), ValueCodec.text(), config);
  }
}

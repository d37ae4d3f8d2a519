package io.tidemark.cache;

import io.tidemark.RedisClients;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisRevisionGuardedCacheIT extends RevisionGuardedCacheContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();

  @Override
  RevisionGuardedCache<String> cache(RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(clients.connect(), ValueCodec.text(), config);
  }
}

package io.tidemark.scope;

import io.tidemark.RedisClients;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract on a standalone Redis, two stores on two connections. */
class RedisScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();

  @Override
  ScopeStore store(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(), config);
  }
}

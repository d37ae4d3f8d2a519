package io.tidemark.scope;

import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract on a standalone Redis, two stores on two connections. */
@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension final RedisClients clients = new RedisClients();
  private RedisServer redis;

  @BeforeAll
  void connect(RedisServer redis) {
    this.redis = redis;
  }

  @Override
  ScopeStore store(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(redis), config);
  }

  @Override
  ScopeStore secondStore(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(redis), config);
  }
}

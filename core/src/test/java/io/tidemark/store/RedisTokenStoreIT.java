package io.tidemark.store;

import io.tidemark.RedisClients;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.TestkitExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract on a standalone Redis, two stores on two connections. */
@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisTokenStoreIT extends TokenStoreContract {

  private final RedisClients clients = new RedisClients();
  private RedisServer redis;

  @BeforeAll
  void connect(RedisServer redis) {
    this.redis = redis;
  }

  @AfterAll
  void close() throws Exception {
    clients.close();
  }

  @Override
  TokenStore store(TokenStoreConfig config) {
    return RedisTokenStore.create(clients.connect(redis), config);
  }

  @Override
  TokenStore secondStore(TokenStoreConfig config) {
    return RedisTokenStore.create(clients.connect(redis), config);
  }
}

package io.tidemark.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.RedisSentinel;
import io.tidemark.testkit.TestkitExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract on a Sentinel-managed Redis, two stores on two connections that Lettuce opens to the
 * primary the sentinels name.
 */
@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSentinelTokenStoreIT extends TokenStoreContract {

  private final RedisClients clients = new RedisClients();
  private RedisSentinel sentinel;

  @BeforeAll
  void connect(RedisSentinel sentinel) {
    this.sentinel = sentinel;
  }

  @AfterAll
  void close() throws Exception {
    clients.close();
  }

  @Override
  TokenStore store(TokenStoreConfig config) {
    return RedisTokenStore.create(clients.connect(sentinel), config);
  }

  @Override
  TokenStore secondStore(TokenStoreConfig config) {
    return RedisTokenStore.create(clients.connect(sentinel), config);
  }

  @Test
  void scopesLandOnThePrimaryTheSentinelsName() {
    RedisTokenStore store = (RedisTokenStore) store(config());
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1-3"));
    // Read back from the primary itself, not through Lettuce, so the routing is what is tested.
    assertThat(GtidSet.parse(sentinel.primary().command("GET", store.key(scope))))
        .isEqualTo(GtidSet.parse(A + ":1-3"));
  }
}

package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisSentinel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract on a Sentinel-managed Redis, two stores on two connections that Lettuce opens to the
 * primary the sentinels name.
 */
class RedisSentinelScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();
  private final RedisSentinel sentinel = SharedServers.redisSentinel();

  @Override
  ScopeStore store(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(sentinel), config);
  }

  @Test
  void scopesLandOnThePrimaryTheSentinelsName() {
    RedisScopeStore store = (RedisScopeStore) store(config());
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1-3"));
    // Read back from the primary itself, not through Lettuce, so the routing is what is tested.
    assertThat(GtidSet.parse(sentinel.primary().command("HGET", store.key(scope), "gtids")))
        .isEqualTo(GtidSet.parse(A + ":1-3"));
  }
}

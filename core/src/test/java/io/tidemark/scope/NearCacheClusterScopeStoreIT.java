package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract for Caffeine copies in front of a three-node Redis Cluster. */
class NearCacheClusterScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();
  private final RedisCluster cluster = SharedServers.redisCluster();

  @Override
  NearCacheScopeStore store(ScopeStoreConfig config) {
    return NearCacheScopeStore.create(
        RedisScopeStore.create(clients.connect(cluster), config),
        clients.connectPubSub(cluster),
        config);
  }

  @Test
  void mergesOnEveryNodeReachTheCopiesByInvalidation() {
    ScopeStoreConfig frozen = NearCopies.neverExpiring(config());
    NearCacheScopeStore first = store(frozen);
    NearCacheScopeStore second = store(frozen);
    for (int i = 0; i < 12; i++) {
      ScopeKey scope = ScopeKey.object("order", "near-" + i + "-" + System.nanoTime());
      first.merge(scope, GtidSet.parse(A + ":1"));
      // Read until the copy is used, then change the scope elsewhere.
      NearCopies.awaitCopyInUse(second, scope);
      first.merge(scope, GtidSet.parse(A + ":2"));
      assertThat(NearCopies.eventuallyServes(second, scope, GtidSet.parse(A + ":1-2")))
          .as("scope %s", scope)
          .isTrue();
    }
  }
}

package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisServer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract on a real three-node Redis Cluster, two stores on two cluster connections. */
class RedisClusterScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();
  private final RedisCluster cluster = SharedServers.redisCluster();

  @Override
  ScopeStore store(ScopeStoreConfig config) {
    return RedisScopeStore.create(clients.connect(cluster), config);
  }

  @Test
  void scopesSpreadOverEveryNodeAndEachScopeStaysInOneSlot() {
    RedisScopeStore store = (RedisScopeStore) store(config());
    Set<Integer> owners = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      ScopeKey scope = ScopeKey.object("order", Integer.toString(i));
      store.merge(scope, GtidSet.parse(A + ":" + (i + 1)));
      store.markDirty(scope, "spread");
      for (int n = 0; n < cluster.nodes().size(); n++) {
        RedisServer node = cluster.nodes().get(n);
        String slot = node.command("CLUSTER", "KEYSLOT", store.key(scope));
        assertThat(node.command("CLUSTER", "KEYSLOT", store.evictionsKey(scope)))
            .as("the eviction watermark is in the scope's slot")
            .isEqualTo(slot);
        // A node counts only the keys it holds itself.
        if (!"0".equals(node.command("CLUSTER", "COUNTKEYSINSLOT", slot))) {
          owners.add(n);
        }
      }
      assertThat(store.get(scope).status()).isEqualTo(ScopeState.Status.DIRTY);
    }
    assertThat(owners).as("nodes holding scopes").hasSize(3);
  }
}

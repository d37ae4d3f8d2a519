package io.tidemark.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import org.junit.jupiter.api.Test;

class RedisClusterIT {

  @Test
  void coversEverySlotAndRedirectsToTheOwningNode() {
    try (RedisCluster cluster = RedisCluster.start()) {
      assertThat(cluster.nodes()).hasSize(3);
      for (RedisServer node : cluster.nodes()) {
        String info = node.command("CLUSTER", "INFO");
        assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384");
        assertThat(info).contains("cluster_known_nodes:3");
      }
      // "a" and "b" hash to slots owned by different nodes: each is refused by all but one.
      for (String key : new String[] {"a", "b", "{user:1}x"}) {
        long owners =
            cluster.nodes().stream()
                .filter(
                    node -> {
                      try {
                        node.command("SET", key, "1");
                        return true;
                      } catch (TestkitException moved) {
                        assertThat(moved).hasMessageContaining("MOVED");
                        return false;
                      }
                    })
                .count();
        assertThat(owners).as("owners of %s", key).isEqualTo(1);
      }
    }
  }

  @Test
  void aKilledNodeRejoinsWithItsSlotsAfterRestart() {
    try (RedisCluster cluster = RedisCluster.start()) {
      RedisServer node = cluster.nodes().get(1);
      node.kill();
      assertThatThrownBy(() -> node.command("PING")).isInstanceOf(TestkitException.class);
      node.restart();
      cluster.awaitOk();
      assertThat(node.command("CLUSTER", "INFO")).contains("cluster_state:ok");
    }
  }
}

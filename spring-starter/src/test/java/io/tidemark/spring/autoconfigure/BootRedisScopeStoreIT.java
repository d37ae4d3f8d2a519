package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The scope store on the Redis the application configured for Boot ({@code spring.data.redis.*}), a
 * single server, a Sentinel-managed one and a cluster, when {@code tidemark.scope.redis-uri} is not
 * set: a scope merged through the starter's store is in that very Redis.
 */
class BootRedisScopeStoreIT {

  private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @RegisterExtension static final TopologyDatabase database = new TopologyDatabase("bootredis");

  private static RedisServer redis;
  private static RedisCluster cluster;
  private static RedisSentinel sentinel;

  @BeforeAll
  static void start() {
    redis = RedisServer.start();
    cluster = RedisCluster.start();
    sentinel = RedisSentinel.start();
  }

  @AfterAll
  static void stop() {
    redis.close();
    cluster.close();
    sentinel.close();
  }

  /** Boot's setting naming the cluster's nodes. */
  private static String clusterNodes() {
    return "spring.data.redis.cluster.nodes="
        + String.join(
            ",", cluster.nodes().stream().map(node -> node.host() + ":" + node.port()).toList());
  }

  private static ApplicationContextRunner runner() {
    return database
        .runner("r")
        .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
        // What is tested is which Redis holds the scopes, not how fast. A store's first call on a
        // cold server sends the script twice (EVALSHA, NOSCRIPT, EVAL), which took longer than the
        // default 50 ms on a loaded machine: the merge then fails softly, and the starter retries
        // it.
        .withPropertyValues("tidemark.scope.store=REDIS", "tidemark.scope.command-timeout=5s");
  }

  @Test
  void aSingleServerFromBootsSettings() {
    runner()
        .withPropertyValues(
            "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ScopeKey scope = ScopeKey.of("customer:7");
              assertThat(
                      context.getBean(ScopeStore.class).merge(scope, GtidSet.parse(UUID + ":1-3")))
                  .isTrue();
              try (ConnectedScopeStore direct =
                  ConnectedScopeStore.connect(redis.uri(), ScopeStoreConfig.defaults(), false)) {
                assertThat(direct.get(scope).gtids().toString()).isEqualTo(UUID + ":1-3");
              }
            });
  }

  @Test
  void aSentinelManagedServerFromBootsSettings() {
    runner()
        .withPropertyValues(
            "spring.data.redis.sentinel.master=" + sentinel.masterName(),
            "spring.data.redis.sentinel.nodes="
                + String.join(
                    ",",
                    sentinel.sentinels().stream()
                        .map(node -> node.host() + ":" + node.port())
                        .toList()))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ScopeKey scope = ScopeKey.of("customer:8");
              assertThat(context.getBean(ScopeStore.class).merge(scope, GtidSet.parse(UUID + ":4")))
                  .isTrue();
              try (ConnectedScopeStore direct =
                  ConnectedScopeStore.connect(
                      sentinel.primary().uri(), ScopeStoreConfig.defaults(), false)) {
                assertThat(direct.get(scope).gtids().toString())
                    .as("the scope is on the primary the sentinels name")
                    .isEqualTo(UUID + ":4");
              }
            });
  }

  @Test
  void aClusterFromBootsSettings() {
    runner()
        .withPropertyValues(clusterNodes())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ScopeStore store = context.getBean(ScopeStore.class);
              for (int i = 0; i < 20; i++) {
                ScopeKey scope = ScopeKey.of("customer:" + i);
                assertThat(store.merge(scope, GtidSet.parse(UUID + ":" + (i + 1)))).isTrue();
                assertThat(store.get(scope).gtids().toString()).isEqualTo(UUID + ":" + (i + 1));
              }
              long keys =
                  cluster.nodes().stream()
                      .mapToLong(node -> Long.parseLong(node.command("DBSIZE").trim()))
                      .sum();
              assertThat(keys).as("the scopes are in the cluster").isGreaterThanOrEqualTo(20);
            });
  }

  @Test
  void aClusterWithANearCache() {
    runner()
        .withPropertyValues("tidemark.scope.near-cache=true", clusterNodes())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ScopeStore store = context.getBean(ScopeStore.class);
              ScopeKey scope = ScopeKey.of("near:1");
              assertThat(store.merge(scope, GtidSet.parse(UUID + ":1-2"))).isTrue();
              assertThat(store.get(scope).gtids().toString()).isEqualTo(UUID + ":1-2");
              assertThat(store.merge(scope, GtidSet.parse(UUID + ":3"))).isTrue();
              assertThat(store.get(scope).gtids().toString())
                  .as("the merge invalidated the near copy")
                  .isEqualTo(UUID + ":1-3");
            });
  }

  @Test
  void neitherUriNorBootsRedisStopsTheStartNamingBoth() {
    UnreachableNodes.runner()
        .withPropertyValues("tidemark.scope.store=REDIS")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining(
                      "neither tidemark.scope.redis-uri nor Boot's spring.data.redis");
            });
  }
}

package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeState;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisServer;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The scope store's start on a real Redis says, in one WARN line, when that Redis may evict scopes
 * or hides its settings, and starts all the same.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionCheckIT {

  private RedisServer redis;

  @BeforeEach
  void start() {
    redis = RedisServer.start();
  }

  @AfterEach
  void stop() {
    redis.close();
  }

  private ConnectedScopeStore connect(String uri) {
    return ConnectedScopeStore.connect(uri, ScopeStoreConfig.defaults(), false);
  }

  @Test
  void aRedisWithoutEvictionStartsQuietly(CapturedOutput output) {
    redis.command("CONFIG", "SET", "maxmemory", "100mb");
    redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    try (ConnectedScopeStore store = connect(redis.uri())) {
      assertThat(store.get(ScopeKey.of("quiet:1"))).isEqualTo(ScopeState.EMPTY);
    }
    assertThat(output).doesNotContain("may evict").doesNotContain("could not read");
  }

  @Test
  void anEvictingPolicyIsOneWarning(CapturedOutput output) {
    redis.command("CONFIG", "SET", "maxmemory", "100mb");
    redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
    try (ConnectedScopeStore store = connect(redis.uri())) {
      assertThat(store.get(ScopeKey.of("warned:1"))).isEqualTo(ScopeState.EMPTY);
    }
    assertThat(output)
        .containsOnlyOnce("may evict scopes")
        .contains("maxmemory-policy volatile-lru with maxmemory 104857600")
        .contains("Set maxmemory-policy noeviction");
  }

  @Test
  void aUserWithoutConfigIsAnsweredByInfo(CapturedOutput output) {
    redis.command("CONFIG", "SET", "maxmemory", "100mb");
    redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
    redis.command("ACL", "SETUSER", "app", "on", ">app-secret", "~*", "&*", "+@all", "-config");
    try (ConnectedScopeStore store =
        connect("redis://app:app-secret@" + redis.host() + ":" + redis.port())) {
      assertThat(store.get(ScopeKey.of("acl:1"))).isEqualTo(ScopeState.EMPTY);
    }
    assertThat(output)
        .contains("maxmemory-policy allkeys-lru with maxmemory 104857600")
        .doesNotContain("app-secret");
  }

  @Test
  void aUserWithoutConfigNorInfoIsOneWarningSayingWhatToVerify(CapturedOutput output) {
    redis.command(
        "ACL", "SETUSER", "app", "on", ">app-secret", "~*", "&*", "+@all", "-config", "-info");
    try (ConnectedScopeStore store =
        connect("redis://app:app-secret@" + redis.host() + ":" + redis.port())) {
      ScopeState state = store.get(ScopeKey.of("acl:" + UUID.randomUUID()));
      assertThat(state.status())
          .as("without INFO a missing scope cannot be told from an evicted one")
          .isEqualTo(ScopeState.Status.UNKNOWN);
    }
    assertThat(output)
        .containsOnlyOnce("could not read the eviction settings")
        .contains("Verify that maxmemory-policy is noeviction")
        .doesNotContain("app-secret");
  }

  @Test
  void everyPrimaryOfAClusterIsChecked(CapturedOutput output) {
    try (RedisCluster cluster = RedisCluster.start()) {
      for (RedisServer node : cluster.nodes()) {
        node.command("CONFIG", "SET", "maxmemory", "100mb");
        node.command("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
      }
      RedisClusterClient client =
          RedisClusterClient.create(cluster.uris().stream().map(RedisURI::create).toList());
      try (ConnectedScopeStore store =
          ConnectedScopeStore.connect(client, ScopeStoreConfig.defaults(), false, "the cluster")) {
        assertThat(store.get(ScopeKey.of("cluster:1"))).isEqualTo(ScopeState.EMPTY);
      }
      String line =
          output
              .getAll()
              .lines()
              .filter(l -> l.contains("may evict scopes"))
              .findFirst()
              .orElseThrow();
      for (RedisServer node : cluster.nodes()) {
        assertThat(line).contains(":" + node.port());
      }
    }
  }
}

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

  /** Caps {@code server}'s memory at 100 MB, which it frees by {@code policy} once full. */
  private static void limitMemory(RedisServer server, String policy) {
    server.command("CONFIG", "SET", "maxmemory", "100mb");
    server.command("CONFIG", "SET", "maxmemory-policy", policy);
  }

  /** A store on {@code uri} starts and finds scope {@code key}, which nobody wrote, empty. */
  private void startsAndReadsEmpty(String uri, String key) {
    try (ConnectedScopeStore store = connect(uri)) {
      assertThat(store.get(ScopeKey.of(key))).isEqualTo(ScopeState.EMPTY);
    }
  }

  /** The server as user {@code app}, whom the test creates with an ACL of its own. */
  private String asApp() {
    return "redis://app:app-secret@" + redis.host() + ":" + redis.port();
  }

  @Test
  void aRedisWithoutEvictionStartsQuietly(CapturedOutput output) {
    limitMemory(redis, "noeviction");

    startsAndReadsEmpty(redis.uri(), "quiet:1");

    assertThat(output).doesNotContain("may evict").doesNotContain("could not read");
  }

  @Test
  void anEvictingPolicyIsOneWarning(CapturedOutput output) {
    limitMemory(redis, "volatile-lru");

    startsAndReadsEmpty(redis.uri(), "warned:1");

    assertThat(output)
        .containsOnlyOnce("may evict scopes")
        .contains("maxmemory-policy volatile-lru with maxmemory 104857600")
        .contains("Set maxmemory-policy noeviction");
  }

  @Test
  void aUserWithoutConfigIsAnsweredByInfo(CapturedOutput output) {
    limitMemory(redis, "allkeys-lru");
    redis.command("ACL", "SETUSER", "app", "on", ">app-secret", "~*", "&*", "+@all", "-config");

    startsAndReadsEmpty(asApp(), "acl:1");

    assertThat(output)
        .contains("maxmemory-policy allkeys-lru with maxmemory 104857600")
        .doesNotContain("app-secret");
  }

  @Test
  void aUserWithoutConfigNorInfoIsOneWarningSayingWhatToVerify(CapturedOutput output) {
    redis.command(
        "ACL", "SETUSER", "app", "on", ">app-secret", "~*", "&*", "+@all", "-config", "-info");
    try (ConnectedScopeStore store = connect(asApp())) {
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
        limitMemory(node, "allkeys-random");
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

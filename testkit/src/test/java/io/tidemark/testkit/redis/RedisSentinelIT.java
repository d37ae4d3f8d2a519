package io.tidemark.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisSentinelIT {

  @Test
  void everySentinelNamesThePrimaryItMonitors() {
    try (RedisSentinel sentinel = RedisSentinel.start(2)) {
      assertThat(sentinel.sentinels()).hasSize(2);
      for (RedisServer node : sentinel.sentinels()) {
        assertThat(node.port()).isNotEqualTo(sentinel.primary().port());
        assertThat(RedisSentinel.primaryAddress(node))
            .isEqualTo("127.0.0.1:" + sentinel.primary().port());
        assertThat(node.command("INFO", "sentinel")).contains("name=" + sentinel.masterName());
      }
      assertThat(sentinel.uri())
          .isEqualTo(
              "redis-sentinel://127.0.0.1:"
                  + sentinel.sentinels().get(0).port()
                  + ",127.0.0.1:"
                  + sentinel.sentinels().get(1).port()
                  + "#"
                  + sentinel.masterName());
      assertThat(sentinel.primary().command("SET", "k", "v")).isEqualTo("OK");
    }
  }

  @Test
  void aSentinelKnowsNoOtherName() {
    try (RedisSentinel sentinel = RedisSentinel.start()) {
      assertThat(
              sentinel
                  .sentinels()
                  .get(0)
                  .commandForArray("SENTINEL", "get-master-addr-by-name", "elsewhere"))
          .isEmpty();
    }
  }
}

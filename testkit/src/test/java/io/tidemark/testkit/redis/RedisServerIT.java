package io.tidemark.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import org.junit.jupiter.api.Test;

class RedisServerIT {

  @Test
  void servesCommandsAndSurvivesKillAndFreeze() {
    try (RedisServer redis = RedisServer.start()) {
      assertThat(redis.command("SET", "k", "v")).isEqualTo("OK");
      assertThat(redis.command("GET", "k")).isEqualTo("v");
      assertThat(redis.version()).matches("\\d+\\.\\d+\\.\\d+");

      redis.freeze();
      try {
        assertThatThrownBy(() -> redis.command("PING")).isInstanceOf(TestkitException.class);
      } finally {
        redis.thaw();
      }
      assertThat(redis.command("GET", "k")).isEqualTo("v");

      redis.kill();
      assertThat(redis.isRunning()).isFalse();
      assertThatThrownBy(() -> redis.command("PING")).isInstanceOf(TestkitException.class);

      redis.restart();
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.command("GET", "k")).as("no persistence across a kill").isNull();
    }
  }

  @Test
  void persistentServerKeepsEveryAcknowledgedWriteAcrossAKill() {
    try (RedisServer redis = RedisServer.startPersistent()) {
      for (int i = 0; i < 100; i++) {
        redis.command("SET", "k" + i, "v" + i);
      }
      redis.kill();
      redis.restart();
      assertThat(redis.command("GET", "k0")).isEqualTo("v0");
      assertThat(redis.command("GET", "k99")).isEqualTo("v99");
      assertThat(redis.command("DBSIZE")).isEqualTo("100");
    }
  }

  @Test
  void twoServersAreIndependent() {
    try (RedisServer first = RedisServer.start();
        RedisServer second = RedisServer.start()) {
      assertThat(first.port()).isNotEqualTo(second.port());
      first.command("SET", "only-here", "1");
      assertThat(second.command("GET", "only-here")).isNull();
    }
  }
}

package io.tidemark.testkit.junit;

import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.rabbitmq.RabbitServer;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension that hands tests a {@link MySqlTopology} (one source, one replica), a {@link
 * RedisServer}, a {@link RedisCluster}, a {@link RedisSentinel} and a {@link RabbitServer}, each
 * started once per test JVM on first use and shared, so a suite pays for server start once. Tests
 * isolate by database names ({@link MySqlTopology#createDatabase}) and must undo the faults they
 * inflict; tests that fail over or kill servers build their own.
 *
 * <pre>{@code
 * @ExtendWith(TestkitExtension.class)
 * class OrdersIT {
 *   @Test
 *   void readsOwnWrite(MySqlTopology topology, RedisServer redis) { ... }
 * }
 * }</pre>
 */
public final class TestkitExtension implements ParameterResolver {

  // The servers live in SharedServers, not in JUnit's extension store: the store's methods differ
  // between JUnit 5, which Spring Boot 3.5 applications run, and JUnit 6.

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == MySqlTopology.class
        || type == RedisServer.class
        || type == RedisCluster.class
        || type == RedisSentinel.class
        || type == RabbitServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == MySqlTopology.class) {
      return SharedServers.topology();
    }
    if (type == RedisCluster.class) {
      return SharedServers.redisCluster();
    }
    if (type == RedisSentinel.class) {
      return SharedServers.redisSentinel();
    }
    if (type == RabbitServer.class) {
      return SharedServers.rabbitmq();
    }
    return SharedServers.redis();
  }
}

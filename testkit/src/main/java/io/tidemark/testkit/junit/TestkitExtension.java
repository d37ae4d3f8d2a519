package io.tidemark.testkit.junit;

import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.rabbitmq.RabbitServer;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
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

  private static final Namespace NAMESPACE = Namespace.create(TestkitExtension.class);

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
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    if (parameter.getParameter().getType() == MySqlTopology.class) {
      return SharedServers.topology();
    }
    if (parameter.getParameter().getType() == RedisCluster.class) {
      return SharedServers.redisCluster();
    }
    if (parameter.getParameter().getType() == RedisSentinel.class) {
      return SharedServers.redisSentinel();
    }
    if (parameter.getParameter().getType() == RabbitServer.class) {
      return store.computeIfAbsent(RabbitServer.class, key -> startRabbit(), RabbitServer.class);
    }
    return SharedServers.redis();
  }

  private static RabbitServer startRabbit() {
    long started = System.nanoTime();
    RabbitServer rabbit = RabbitServer.start();
    System.out.printf(
        "tidemark-testkit: backend=local processes, rabbitmq %s on port %d up in %d ms%n",
        rabbit.version(), rabbit.port(), (System.nanoTime() - started) / 1_000_000);
    return rabbit;
  }
}

package io.tidemark;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Lettuce clients for tests, configured as the stores' documentation asks: commands are rejected at
 * once while disconnected. Closes everything it opened: when closed, or after the test class when
 * it is a static {@code @RegisterExtension} field (or an instance one of a {@code PER_CLASS} test).
 */
public final class RedisClients implements AutoCloseable, AfterAllCallback {

  private final List<AutoCloseable> open = new ArrayList<>();

  /** A connection to the Redis the testkit shares between tests. */
  public StatefulRedisConnection<String, String> connect() {
    return connect(SharedServers.redis());
  }

  /** A pub/sub connection to the Redis the testkit shares between tests. */
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    return connectPubSub(SharedServers.redis());
  }

  public StatefulRedisConnection<String, String> connect(RedisServer redis) {
    return connect(RedisURI.create(redis.uri()));
  }

  /** A connection to the primary the sentinels name, found by asking them as Lettuce does. */
  public StatefulRedisConnection<String, String> connect(RedisSentinel sentinel) {
    return connect(RedisURI.create(sentinel.uri()));
  }

  private StatefulRedisConnection<String, String> connect(RedisURI uri) {
    RedisClient client = RedisClient.create(uri);
    client.setOptions(
        ClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    return connected(client, RedisClient::connect);
  }

  public StatefulRedisPubSubConnection<String, String> connectPubSub(RedisServer redis) {
    return connected(RedisClient.create(redis.uri()), RedisClient::connectPubSub);
  }

  public StatefulRedisPubSubConnection<String, String> connectPubSub(RedisCluster cluster) {
    return connected(clusterClient(cluster), RedisClusterClient::connectPubSub);
  }

  public StatefulRedisClusterConnection<String, String> connect(RedisCluster cluster) {
    RedisClusterClient client = clusterClient(cluster);
    client.setOptions(
        ClusterClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    return connected(client, RedisClusterClient::connect);
  }

  private static RedisClusterClient clusterClient(RedisCluster cluster) {
    return RedisClusterClient.create(cluster.uris().stream().map(RedisURI::create).toList());
  }

  /** {@code connect}'s connection of {@code client}; both are closed with this. */
  private <C extends AbstractRedisClient, T extends AutoCloseable> T connected(
      C client, Function<C, T> connect) {
    open.add(() -> shutdown(client));
    T connection = connect.apply(client);
    open.add(connection);
    return connection;
  }

  /**
   * Shuts {@code client} down, waiting at most 10 s: a cluster client's shutdown has waited on its
   * futures for good once. Its threads are daemons, so one left behind ends with the JVM.
   */
  private static void shutdown(AbstractRedisClient client) throws Exception {
    try {
      client.shutdownAsync().get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      System.err.println("A Redis client did not shut down within 10 s; left to the JVM's exit.");
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    close();
  }

  /** Polls {@code condition} with short pauses until it holds or {@code timeout} passed. */
  public static boolean eventually(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      // A poll of a server that notifies nobody; nothing is asserted about this pause.
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
    return true;
  }

  @Override
  public void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }
}

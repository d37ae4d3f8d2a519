package io.tidemark.testkit.junit;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.mariadb.MariaDbBinaries;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresBinaries;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.rabbitmq.RabbitServer;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The topologies, Redis deployments and RabbitMQ broker that tests of one JVM share, started on
 * first use on the configured {@link Backend}, stopped at JVM exit.
 */
public final class SharedServers {

  private static final Shared<MySqlTopology> TOPOLOGY =
      new Shared<>(
          () -> MySqlTopology.builder().start(),
          topology ->
              "backend=%s, 1 source + %d replica(s) up in %d ms"
                  .formatted(
                      topology.backend(),
                      topology.replicas().size(),
                      topology.startTime().toMillis()));

  private static final Shared<PostgresTopology> POSTGRES =
      new Shared<>(
          () -> PostgresTopology.builder().standbys(1).start(),
          postgres ->
              "postgres %s, 1 primary + %d standby(s) up in %d ms"
                  .formatted(
                      postgres.binaries().version(),
                      postgres.standbys().size(),
                      postgres.startTime().toMillis()));

  private static final Shared<MariaDbTopology> MARIADB =
      new Shared<>(
          () -> MariaDbTopology.builder().start(),
          mariadb ->
              "mariadb %s, 1 source + %d replica(s) up in %d ms"
                  .formatted(
                      mariadb.binaries().version(),
                      mariadb.replicas().size(),
                      mariadb.startTime().toMillis()));

  private static final Shared<RedisServer> REDIS =
      new Shared<>(
          RedisServer::start,
          redis ->
              "backend=%s (redis %s) on port %d"
                  .formatted(redis.backend(), redis.version(), redis.port()));

  private static final Shared<RedisCluster> REDIS_CLUSTER =
      new Shared<>(
          RedisCluster::start,
          cluster ->
              "backend=local processes, redis cluster %s, %s"
                  .formatted(cluster.version(), cluster));

  private static final Shared<RedisSentinel> REDIS_SENTINEL =
      new Shared<>(
          RedisSentinel::start,
          sentinel ->
              "backend=local processes, redis %s, %s".formatted(sentinel.version(), sentinel));

  private static final Shared<RabbitServer> RABBITMQ =
      new Shared<>(
          RabbitServer::start,
          rabbit ->
              "backend=local processes, rabbitmq %s on port %d"
                  .formatted(rabbit.version(), rabbit.port()));

  private SharedServers() {}

  /** The shared topology: one source and one replica. */
  public static MySqlTopology topology() {
    return TOPOLOGY.get();
  }

  /**
   * The shared PostgreSQL topology: one primary and one hot standby, as local processes of the
   * binaries {@link PostgresBinaries} finds.
   */
  public static PostgresTopology postgres() {
    return POSTGRES.get();
  }

  /**
   * The shared MariaDB topology: one source and one replica, as local processes of the binaries
   * {@link MariaDbBinaries} finds.
   */
  public static MariaDbTopology mariadb() {
    return MARIADB.get();
  }

  /** The shared Redis. */
  public static RedisServer redis() {
    return REDIS.get();
  }

  /** The shared Redis Cluster: three primaries, as local processes. */
  public static RedisCluster redisCluster() {
    return REDIS_CLUSTER.get();
  }

  /** The shared Redis primary with its replica and sentinels, as local processes. */
  public static RedisSentinel redisSentinel() {
    return REDIS_SENTINEL.get();
  }

  /** The shared RabbitMQ broker, as a local process of Debian's rabbitmq-server. */
  public static RabbitServer rabbitmq() {
    return RABBITMQ.get();
  }

  /** One server, started on first use and then the same; its start is told on the console. */
  private static final class Shared<T> {
    private final Supplier<T> start;
    private final Function<T, String> started;
    private @Nullable T server;

    Shared(Supplier<T> start, Function<T, String> started) {
      this.start = start;
      this.started = started;
    }

    synchronized T get() {
      T running = server;
      if (running == null) {
        running = start.get();
        System.out.println("tidemark-testkit: " + started.apply(running));
        server = running;
      }
      return running;
    }
  }
}

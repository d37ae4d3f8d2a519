package io.tidemark.testkit.junit;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.mariadb.MariaDbBinaries;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresBinaries;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.redis.RedisCluster;
import io.tidemark.testkit.redis.RedisSentinel;
import io.tidemark.testkit.redis.RedisServer;
import org.jspecify.annotations.Nullable;

/**
 * The topologies and Redis deployments that tests of one JVM share, started on first use on the
 * configured {@link Backend}, stopped at JVM exit.
 */
public final class SharedServers {

  private static @Nullable MySqlTopology topology;
  private static @Nullable RedisServer redis;
  private static @Nullable PostgresTopology postgres;
  private static @Nullable MariaDbTopology mariadb;
  private static @Nullable RedisCluster redisCluster;
  private static @Nullable RedisSentinel redisSentinel;

  private SharedServers() {}

  /** The shared topology: one source and one replica. */
  public static synchronized MySqlTopology topology() {
    if (topology == null) {
      topology = MySqlTopology.builder().start();
      System.out.printf(
          "tidemark-testkit: backend=%s, 1 source + %d replica(s) up in %d ms%n",
          topology.backend(), topology.replicas().size(), topology.startTime().toMillis());
    }
    return topology;
  }

  /**
   * The shared PostgreSQL topology: one primary and one hot standby, as local processes of the
   * binaries {@link PostgresBinaries} finds.
   */
  public static synchronized PostgresTopology postgres() {
    if (postgres == null) {
      postgres = PostgresTopology.builder().standbys(1).start();
      System.out.printf(
          "tidemark-testkit: postgres %s, 1 primary + %d standby(s) up in %d ms%n",
          postgres.binaries().version(),
          postgres.standbys().size(),
          postgres.startTime().toMillis());
    }
    return postgres;
  }

  /**
   * The shared MariaDB topology: one source and one replica, as local processes of the binaries
   * {@link MariaDbBinaries} finds.
   */
  public static synchronized MariaDbTopology mariadb() {
    if (mariadb == null) {
      mariadb = MariaDbTopology.builder().start();
      System.out.printf(
          "tidemark-testkit: mariadb %s, 1 source + %d replica(s) up in %d ms%n",
          mariadb.binaries().version(), mariadb.replicas().size(), mariadb.startTime().toMillis());
    }
    return mariadb;
  }

  /** The shared Redis. */
  public static synchronized RedisServer redis() {
    if (redis == null) {
      redis = RedisServer.start();
      System.out.printf(
          "tidemark-testkit: backend=%s (redis %s) on port %d%n",
          redis.backend(), redis.version(), redis.port());
    }
    return redis;
  }

  /** The shared Redis Cluster: three primaries, as local processes. */
  public static synchronized RedisCluster redisCluster() {
    if (redisCluster == null) {
      redisCluster = RedisCluster.start();
      System.out.printf(
          "tidemark-testkit: backend=local processes, redis cluster %s, %s%n",
          redisCluster.version(), redisCluster);
    }
    return redisCluster;
  }

  /** The shared Redis primary with its replica and sentinels, as local processes. */
  public static synchronized RedisSentinel redisSentinel() {
    if (redisSentinel == null) {
      redisSentinel = RedisSentinel.start();
      System.out.printf(
          "tidemark-testkit: backend=local processes, redis %s, %s%n",
          redisSentinel.version(), redisSentinel);
    }
    return redisSentinel;
  }
}

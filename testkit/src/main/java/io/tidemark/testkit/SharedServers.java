package io.tidemark.testkit;

/**
 * The topology and Redis that tests of one JVM share, started on first use on the configured {@link
 * Backend}, stopped at JVM exit.
 */
public final class SharedServers {

  private static MySqlTopology topology;
  private static RedisServer redis;

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
}

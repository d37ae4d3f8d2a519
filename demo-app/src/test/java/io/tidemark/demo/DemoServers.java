package io.tidemark.demo;

import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.util.Map;

/**
 * A MySQL source and replica, Redis, and the demo's instances on them with {@code settings}: what
 * an IT that applies faults starts for all its tests. Closing stops them all.
 */
record DemoServers(MySqlTopology topology, RedisServer redis, Demo demo) implements AutoCloseable {

  /** Starts the servers, then the instances; what started is stopped when a later start fails. */
  static DemoServers start(Map<String, Object> settings) {
    MySqlTopology topology = MySqlTopology.builder().start();
    RedisServer redis = null;
    try {
      redis = RedisServer.start();
      return new DemoServers(topology, redis, Demo.start(topology, redis, 0, settings));
    } catch (RuntimeException | Error e) {
      if (redis != null) {
        redis.close();
      }
      topology.close();
      throw e;
    }
  }

  @Override
  public void close() {
    demo.close();
    redis.close();
    topology.close();
  }
}

package io.tidemark.spring.shop;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A test class's shop database on the shared topology, the instances it starts on it and, if it
 * asks, a Redis of its own. The instances close once the class's tests are done, then the Redis,
 * which their scope stores use until they close; the replica's applier resumes after each test, so
 * that a test that paused it and failed does not leave the next one a replica that lags.
 */
final class ShopInstances implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

  private final String name;
  private final List<ConfigurableApplicationContext> started = new ArrayList<>();
  private boolean withRedis;
  private MySqlTopology topology;
  private String db;
  private RedisServer redis;

  /** On a new database named after {@code name}. */
  ShopInstances(String name) {
    this.name = name;
  }

  /** With a Redis server of the class's own, started before its tests. */
  ShopInstances withRedis() {
    withRedis = true;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    topology = SharedServers.topology();
    db = ShopApplication.database(topology, name);
    if (withRedis) {
      redis = RedisServer.start();
    }
  }

  MySqlTopology topology() {
    return topology;
  }

  String db() {
    return db;
  }

  RedisServer redis() {
    return redis;
  }

  /** Starts an instance without a web server; {@code extra} are more properties, key=value. */
  ConfigurableApplicationContext start(String... extra) {
    return started(ShopApplication.start(topology, db, extra));
  }

  /** Starts an instance as a web server; {@code extra} are more properties, key=value. */
  ConfigurableApplicationContext startWeb(String... extra) {
    return started(ShopApplication.startWeb(topology, db, extra));
  }

  private ConfigurableApplicationContext started(ConfigurableApplicationContext instance) {
    started.add(instance);
    return instance;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    topology.replica().resumeApplier();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    started.forEach(ConfigurableApplicationContext::close);
    if (redis != null) {
      redis.close();
    }
  }
}

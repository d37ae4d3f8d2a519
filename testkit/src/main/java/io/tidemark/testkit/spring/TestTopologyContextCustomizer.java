package io.tidemark.testkit.spring;

import io.tidemark.testkit.MySqlNode;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.SharedServers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Adds the shared servers' addresses ahead of the application's own properties. Equal for equal
 * annotations, so Spring's context cache shares one context, and one database, between them.
 */
final class TestTopologyContextCustomizer implements ContextCustomizer {

  private final String database;

  TestTopologyContextCustomizer(String database) {
    this.database = database;
  }

  @Override
  public void customizeContext(
      ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
    MySqlTopology topology = SharedServers.topology();
    RedisServer redis = SharedServers.redis();
    context
        .getEnvironment()
        .getPropertySources()
        .addFirst(
            new MapPropertySource(
                "tidemarkTestTopology",
                properties(topology, redis, topology.createDatabase(database))));
  }

  static Map<String, Object> properties(MySqlTopology topology, RedisServer redis, String db) {
    Map<String, Object> properties = new LinkedHashMap<>();
    MySqlNode source = topology.source();
    properties.put("spring.datasource.url", source.jdbcUrl(db));
    properties.put("spring.datasource.username", source.user());
    properties.put("spring.datasource.password", source.password());
    List<MySqlNode> replicas = topology.replicas();
    for (int i = 0; i < replicas.size(); i++) {
      properties.put("tidemark.replicas[" + i + "].url", replicas.get(i).jdbcUrl(db));
    }
    properties.put("tidemark.scope.redis-uri", redis.uri());
    return properties;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof TestTopologyContextCustomizer customizer
        && customizer.database.equals(database);
  }

  @Override
  public int hashCode() {
    return database.hashCode();
  }
}

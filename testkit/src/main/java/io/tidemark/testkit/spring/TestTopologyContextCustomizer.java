package io.tidemark.testkit.spring;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.junit.SharedServers;
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
  private final TestTopology.Server server;

  TestTopologyContextCustomizer(String database, TestTopology.Server server) {
    this.database = database;
    this.server = server;
  }

  @Override
  public void customizeContext(
      ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
    Map<String, Object> properties = new LinkedHashMap<>();
    point(properties, SharedTopology.of(server));
    properties.put("tidemark.scope.redis-uri", SharedServers.redis().uri());
    context
        .getEnvironment()
        .getPropertySources()
        .addFirst(new MapPropertySource("tidemarkTestTopology", properties));
  }

  /** The source and its replicas, on a database of the test's own. */
  private void point(Map<String, Object> properties, SharedTopology shared) {
    String db = shared.topology().createDatabase(database);
    DatabaseNode<?> source = shared.source();
    List<? extends DatabaseNode<?>> replicas = shared.replicas();
    properties.put("spring.datasource.url", source.jdbcUrl(db));
    properties.put("spring.datasource.username", source.user());
    properties.put("spring.datasource.password", source.password());
    for (int i = 0; i < replicas.size(); i++) {
      properties.put("tidemark.replicas[" + i + "].url", replicas.get(i).jdbcUrl(db));
    }
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof TestTopologyContextCustomizer customizer
        && customizer.database.equals(database)
        && customizer.server == server;
  }

  @Override
  public int hashCode() {
    return 31 * database.hashCode() + server.hashCode();
  }
}

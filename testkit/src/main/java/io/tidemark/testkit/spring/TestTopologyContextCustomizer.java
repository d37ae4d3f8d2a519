package io.tidemark.testkit.spring;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
    if (server == TestTopology.Server.POSTGRESQL) {
      PostgresTopology topology = SharedServers.postgres();
      String db = topology.createDatabase(database);
      PostgresNode primary = topology.primary();
      source(properties, primary.jdbcUrl(db), primary.user(), primary.password());
      replicas(properties, topology.standbys().stream().map(standby -> standby.jdbcUrl(db)));
    } else {
      MySqlTopology topology = SharedServers.topology();
      String db = topology.createDatabase(database);
      MySqlNode source = topology.source();
      source(properties, source.jdbcUrl(db), source.user(), source.password());
      replicas(properties, topology.replicas().stream().map(replica -> replica.jdbcUrl(db)));
    }
    properties.put("tidemark.scope.redis-uri", SharedServers.redis().uri());
    context
        .getEnvironment()
        .getPropertySources()
        .addFirst(new MapPropertySource("tidemarkTestTopology", properties));
  }

  private static void source(
      Map<String, Object> properties, String url, String user, String password) {
    properties.put("spring.datasource.url", url);
    properties.put("spring.datasource.username", user);
    properties.put("spring.datasource.password", password);
  }

  private static void replicas(Map<String, Object> properties, Stream<String> urls) {
    List<String> each = urls.toList();
    for (int i = 0; i < each.size(); i++) {
      properties.put("tidemark.replicas[" + i + "].url", each.get(i));
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

package io.tidemark.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.SharedServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

/**
 * What {@link TestTopology} gives a plain Spring test, on each database: the properties it adds and
 * the database it makes, on the shared source and its one replica. A subclass names the database
 * and the server in its annotation, {@code database = "shop"}.
 */
@SpringJUnitConfig
abstract class TestTopologyContract {

  @Configuration
  static class Empty {}

  @Autowired Environment environment;

  /** The shared topology the annotation's server names, told by the subclass. */
  abstract ReplicatedTopology<?> topology();

  @Test
  void theApplicationIsPointedAtTheSharedServersOnADatabaseOfItsOwn() throws SQLException {
    TestTopology.Server server = getClass().getAnnotation(TestTopology.class).server();
    SharedTopology shared = SharedTopology.of(server);
    assertThat(shared.topology()).as("the shared topology of %s", server).isSameAs(topology());
    DatabaseNode<?> source = shared.source();
    DatabaseNode<?> replica = shared.replicas().get(0);
    String url = environment.getRequiredProperty("spring.datasource.url");
    String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));

    assertThat(url).isEqualTo(source.jdbcUrl(database));
    assertThat(database).startsWith("shop_");
    assertThat(environment.getProperty("spring.datasource.username")).isEqualTo(source.user());
    assertThat(environment.getProperty("tidemark.replicas[0].url"))
        .isEqualTo(replica.jdbcUrl(database));
    assertThat(environment.getProperty("tidemark.replicas[1].url")).isNull();
    assertThat(environment.getProperty("tidemark.scope.redis-uri"))
        .isEqualTo(SharedServers.redis().uri());
    try (Connection connection =
            DriverManager.getConnection(url, source.user(), source.password());
        Statement create = connection.createStatement()) {
      create.execute("CREATE TABLE t (id INT PRIMARY KEY)");
    }
    assertThat(replica.awaitPosition(source.position(), Duration.ofSeconds(10)))
        .as("the table reached the replica")
        .isTrue();
  }
}

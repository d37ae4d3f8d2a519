package io.tidemark.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

/** {@link TestTopology} on PostgreSQL: the primary and its standby, on a database of the test's. */
@SpringJUnitConfig
@TestTopology(database = "shop", server = TestTopology.Server.POSTGRESQL)
class TestTopologyPostgresIT {

  @Configuration
  static class Empty {}

  @Autowired Environment environment;

  @Test
  void theApplicationIsPointedAtTheSharedPrimaryAndStandbyOnADatabaseOfItsOwn()
      throws SQLException {
    PostgresTopology topology = SharedServers.postgres();
    String url = environment.getRequiredProperty("spring.datasource.url");
    String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));

    assertThat(url).isEqualTo(topology.primary().jdbcUrl(database));
    assertThat(database).startsWith("shop_");
    assertThat(environment.getProperty("spring.datasource.username"))
        .isEqualTo(topology.primary().user());
    assertThat(environment.getProperty("tidemark.replicas[0].url"))
        .isEqualTo(topology.standby().jdbcUrl(database));
    assertThat(environment.getProperty("tidemark.replicas[1].url")).isNull();
    assertThat(environment.getProperty("tidemark.scope.redis-uri"))
        .isEqualTo(SharedServers.redis().uri());

    try (Connection primary =
            DriverManager.getConnection(
                url, topology.primary().user(), topology.primary().password());
        Statement create = primary.createStatement()) {
      create.execute("CREATE TABLE t (id int PRIMARY KEY)");
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    try (Connection standby =
            DriverManager.getConnection(
                environment.getRequiredProperty("tidemark.replicas[0].url"),
                topology.standby().user(),
                topology.standby().password());
        Statement look = standby.createStatement();
        ResultSet rs = look.executeQuery("SELECT to_regclass('t') IS NOT NULL")) {
      rs.next();
      assertThat(rs.getBoolean(1)).as("the table reached the standby's copy").isTrue();
    }
  }
}

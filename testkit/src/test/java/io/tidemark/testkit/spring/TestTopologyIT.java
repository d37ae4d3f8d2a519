package io.tidemark.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

/**
 * {@link TestTopology} on a plain Spring test: the properties it adds and the database it makes.
 */
@SpringJUnitConfig
@TestTopology(database = "shop")
class TestTopologyIT {

  @Configuration
  static class Empty {}

  @Autowired Environment environment;

  @Test
  void theApplicationIsPointedAtTheSharedServersOnADatabaseOfItsOwn() {
    MySqlTopology topology = SharedServers.topology();
    String url = environment.getRequiredProperty("spring.datasource.url");
    String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));

    assertThat(url).isEqualTo(topology.source().jdbcUrl(database));
    assertThat(database).startsWith("shop_");
    assertThat(environment.getProperty("spring.datasource.username"))
        .isEqualTo(topology.source().user());
    assertThat(environment.getProperty("tidemark.replicas[0].url"))
        .isEqualTo(topology.replica().jdbcUrl(database));
    assertThat(environment.getProperty("tidemark.replicas[1].url")).isNull();
    assertThat(environment.getProperty("tidemark.scope.redis-uri"))
        .isEqualTo(SharedServers.redis().uri());
    topology.source().execute("CREATE TABLE `" + database + "`.t (id INT PRIMARY KEY)");
    assertThat(
            topology
                .replica()
                .awaitGtidSet(topology.source().gtidExecuted(), Duration.ofSeconds(10)))
        .isTrue();
  }

  @Nested
  class Inner {
    @Autowired Environment inner;

    @Test
    void aNestedTestSharesTheContextAndItsDatabase() {
      assertThat(inner.getProperty("spring.datasource.url"))
          .isEqualTo(environment.getProperty("spring.datasource.url"));
    }
  }
}

package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.spring.TestTopology;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The quick start's application built as a PostgreSQL user builds it: what the starter brings
 * along, and the application reading its own write on a lagging standby with only that.
 */
@SpringBootTest(properties = {"tidemark.token.secret=", "orders.read-timeout=2s"})
@TestTopology(server = TestTopology.Server.POSTGRESQL)
class PostgresOnlyIT {

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;

  @Test
  void theStarterBringsNeitherMySqlsDriverNorCaffeine() {
    List<String> jars =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .map(entry -> Path.of(entry).getFileName().toString())
            .toList();
    System.out.println("The application's class path: " + String.join(" ", jars));

    assertThat(jars)
        .anyMatch(jar -> jar.startsWith("tidemark-spring-boot-starter-"))
        .anyMatch(jar -> jar.startsWith("postgresql-"))
        .noneMatch(jar -> jar.startsWith("mysql-connector-j-"))
        .noneMatch(jar -> jar.startsWith("mariadb-java-client-"))
        .noneMatch(jar -> jar.startsWith("caffeine-"));
  }

  @Test
  void readsItsOwnWriteOnTheStandby() {
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer TEXT)");
    PostgresNode standby = SharedServers.postgres().standby();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      standby.pauseReplay(); // the standby lags behind the write
      orders.create(1, "ada");
      standby.resumeReplayAfter(Duration.ofMillis(200));

      assertThat(orders.customer(1)).contains("ada");
      ExecutionRecord read = unit.context().lastRead();
      assertThat(read.role()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    } finally {
      standby.resumeReplay();
    }
  }
}

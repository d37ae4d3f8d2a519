package com.example.shop;

import static com.example.shop.MySqlContainers.mysql;
import static com.example.shop.MySqlContainers.replicate;

import io.tidemark.spring.connection.ReplicaServiceConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.jdbc.core.JdbcTemplate;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The quick start with its source and replica in containers, as Spring Boot's service connections
 * give them: {@code @ServiceConnection} makes the source the application's DataSource, {@code
 * ReplicaServiceConnection} makes the replica Tidemark's, over the application.properties' URLs.
 * Needs a Docker API (DOCKER_HOST); bin/test runs it on Podman's.
 */
@SpringBootTest(properties = {"tidemark.token.secret=", "orders.read-timeout=2s"})
class ContainersServiceConnectionIT {

  // tag::service-connections[]
  @ServiceConnection static MySQLContainer source = mysql(1);

  @ReplicaServiceConnection static MySQLContainer replica = mysql(2);

  static {
    replicate(source, replica); // replication is the test's to set up
  }
  // end::service-connections[]

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;

  /** Started here, stopped here: no reaper removes containers on Podman. */
  @AfterAll
  static void stop() {
    replica.stop();
    source.stop();
  }

  @Test
  void readsItsOwnWriteOnTheReplicaContainer() {
    MySqlContainers.readsOwnWriteOnTheLaggingReplica(orders, jdbc, replica);
  }
}

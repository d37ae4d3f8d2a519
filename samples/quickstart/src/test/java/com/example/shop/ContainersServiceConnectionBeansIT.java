package com.example.shop;

import static com.example.shop.MySqlContainers.mysql;
import static com.example.shop.MySqlContainers.replicate;

import io.tidemark.spring.connection.ReplicaServiceConnection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The same, with the containers as beans of a test configuration: the form an application also
 * runs at development time ({@code SpringApplication.from(ShopApplication::main).with(...)}).
 * Needs a Docker API (DOCKER_HOST); bin/test runs it on Podman's.
 */
@DirtiesContext // the context closes after this class, and its container beans stop with it
@SpringBootTest(
    classes = {ShopApplication.class, ContainersServiceConnectionBeansIT.Databases.class},
    properties = {"tidemark.token.secret=", "orders.read-timeout=2s"})
class ContainersServiceConnectionBeansIT {

  // tag::service-connection-beans[]
  @TestConfiguration(proxyBeanMethods = false)
  static class Databases {

    @Bean
    @ServiceConnection
    MySQLContainer source() {
      return mysql(1);
    }

    @Bean
    @ReplicaServiceConnection
    MySQLContainer replica(@Qualifier("source") MySQLContainer source) {
      MySQLContainer replica = mysql(2);
      replicate(source, replica);
      return replica;
    }
  }
  // end::service-connection-beans[]

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;
  @Autowired @Qualifier("replica") MySQLContainer replica;

  @Test
  void readsItsOwnWriteOnTheReplicaBean() {
    MySqlContainers.readsOwnWriteOnTheLaggingReplica(orders, jdbc, replica);
  }
}

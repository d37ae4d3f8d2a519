package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.ReplicaConnectionDetails;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The quick start with its source and replica started by Spring Boot's Docker Compose support from
 * a compose.yaml: the service labelled {@code tidemark-replica} is Tidemark's replica, over the
 * application.properties' URL. Needs a Docker API (DOCKER_HOST) and the Compose CLI; bin/test runs
 * it on Podman's.
 */
@DirtiesContext // the context closes after this class, and Boot takes the services down with it
@SpringBootTest(
    properties = {
      "spring.docker.compose.file=src/test/resources/compose.yaml",
      "spring.docker.compose.skip.in-tests=false",
      "spring.docker.compose.stop.command=down", // each run on new servers
      "tidemark.token.secret=",
      "orders.read-timeout=2s"
    })
class ContainersDockerComposeIT {

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;
  @Autowired JdbcConnectionDetails source;
  @Autowired ReplicaConnectionDetails replica;
  @Autowired NodeRuntime nodes;

  /**
   * Replication is the test's to start, once Boot has started the services: the replica follows
   * the source's published port, and Tidemark is told to look again rather than at its next probe.
   */
  @BeforeEach
  void replicate() {
    if (query("SELECT COUNT(*) FROM performance_schema.replication_connection_configuration")
        .equals("0")) {
      int sourcePort = URI.create(source.getJdbcUrl().substring("jdbc:".length())).getPort();
      sql(
          "CHANGE REPLICATION SOURCE TO SOURCE_HOST = 'host.containers.internal', SOURCE_PORT = "
              + sourcePort
              + ", SOURCE_USER = 'root', SOURCE_PASSWORD = 'secret', SOURCE_AUTO_POSITION = 1,"
              + " GET_SOURCE_PUBLIC_KEY = 1",
          "START REPLICA");
    }
    assertThat(nodes.view().refreshNow().join().node("replica-1"))
        .hasValueSatisfying(replica -> assertThat(replica.readable()).isTrue());
  }

  @Test
  void readsItsOwnWriteOnTheComposeReplica() {
    assertThat(replica.getJdbcUrl()).startsWith("jdbc:mysql://").endsWith("/shop");
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer TEXT)");
    jdbc.update("DELETE FROM orders WHERE id = 1"); // services a killed run left up are reused
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      sql("STOP REPLICA SQL_THREAD"); // the replica lags behind the write
      orders.create(1, "ada");
      CompletableFuture.runAsync(
          () -> sql("START REPLICA SQL_THREAD"),
          CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));

      assertThat(orders.customer(1)).contains("ada");
      ExecutionRecord read = unit.context().lastRead();
      assertThat(read.node()).isEqualTo(query("SELECT @@server_uuid"));
      assertThat(read.role()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    } finally {
      sql("START REPLICA SQL_THREAD");
    }
  }

  /** On the replica, as the source's user (replica.getUsername() is null: the source's). */
  private Connection replicaConnection() throws SQLException {
    return DriverManager.getConnection(
        replica.getJdbcUrl(), source.getUsername(), source.getPassword());
  }

  private String query(String sql) {
    try (Connection connection = replicaConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private void sql(String... statements) {
    try (Connection connection = replicaConnection();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}

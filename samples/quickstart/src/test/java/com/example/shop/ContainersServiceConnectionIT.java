package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.connection.ReplicaServiceConnection;
import io.tidemark.testkit.Backend;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.jdbc.core.JdbcTemplate;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

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

  static MySQLContainer mysql(int serverId) {
    return new MySQLContainer(
            DockerImageName.parse(Backend.mysqlImage()).asCompatibleSubstituteFor("mysql"))
        .withDatabaseName("shop")
        .withUsername("root") // replication and Tidemark's probes need more than one database
        .withPassword("secret")
        .withCommand(
            "--server-id=" + serverId, "--gtid-mode=ON", "--enforce-gtid-consistency=ON");
  }

  static {
    Startables.deepStart(source, replica).join();
    // The replica follows the source through the host's published port.
    sql(
        replica,
        "CHANGE REPLICATION SOURCE TO SOURCE_HOST = 'host.containers.internal', SOURCE_PORT = "
            + source.getMappedPort(3306)
            + ", SOURCE_USER = 'root', SOURCE_PASSWORD = 'secret', SOURCE_AUTO_POSITION = 1,"
            + " GET_SOURCE_PUBLIC_KEY = 1",
        "START REPLICA",
        "SET GLOBAL super_read_only = ON");
  }
  // end::service-connections[]

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;

  @Test
  void readsItsOwnWriteOnTheReplicaContainer() {
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer TEXT)");
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      sql(replica, "STOP REPLICA SQL_THREAD"); // the replica lags behind the write
      orders.create(1, "ada");
      CompletableFuture.runAsync(
          () -> sql(replica, "START REPLICA SQL_THREAD"),
          CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));

      assertThat(orders.customer(1)).contains("ada");
      ExecutionRecord read = unit.context().lastRead();
      assertThat(read.node()).isEqualTo(serverUuid(replica)); // the replica container answered
      assertThat(read.role()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    } finally {
      sql(replica, "START REPLICA SQL_THREAD");
    }
  }

  static String serverUuid(MySQLContainer server) {
    try (Connection connection =
            DriverManager.getConnection(
                server.getJdbcUrl(), server.getUsername(), server.getPassword());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT @@server_uuid")) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static void sql(MySQLContainer server, String... statements) {
    try (Connection connection =
            DriverManager.getConnection(
                server.getJdbcUrl(), server.getUsername(), server.getPassword());
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}

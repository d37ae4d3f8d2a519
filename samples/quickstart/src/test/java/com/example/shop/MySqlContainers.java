package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.testkit.Backend;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.jdbc.core.JdbcTemplate;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * MySQL containers of the testkit's image with GTIDs on, the replica following the source, and the
 * quick start's read of its own write on that replica while it lags: what the service-connection
 * tests share.
 */
final class MySqlContainers {

  private MySqlContainers() {}

  // tag::mysql-containers[]
  static MySQLContainer mysql(int serverId) {
    return new MySQLContainer(
            DockerImageName.parse(Backend.mysqlImage()).asCompatibleSubstituteFor("mysql"))
        .withDatabaseName("shop")
        .withUsername("root") // replication and Tidemark's probes need more than one database
        .withPassword("secret")
        .withCommand(
            "--server-id=" + serverId, "--gtid-mode=ON", "--enforce-gtid-consistency=ON");
  }

  /** Starts both; the replica follows the source through the host's published port. */
  static void replicate(MySQLContainer source, MySQLContainer replica) {
    Startables.deepStart(source, replica).join();
    sql(
        replica,
        "CHANGE REPLICATION SOURCE TO SOURCE_HOST = 'host.containers.internal', SOURCE_PORT = "
            + source.getMappedPort(3306)
            + ", SOURCE_USER = 'root', SOURCE_PASSWORD = 'secret', SOURCE_AUTO_POSITION = 1,"
            + " GET_SOURCE_PUBLIC_KEY = 1",
        "START REPLICA",
        "SET GLOBAL super_read_only = ON");
  }
  // end::mysql-containers[]

  /**
   * Creates an order while the replica's applier is stopped, starts it again 200 ms later, and
   * checks that the order's read waited for the replica and was answered by it.
   */
  static void readsOwnWriteOnTheLaggingReplica(
      Orders orders, JdbcTemplate jdbc, MySQLContainer replica) {
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer TEXT)");
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      sql(replica, "STOP REPLICA SQL_THREAD");
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
    try (Connection connection = connect(server);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT @@server_uuid")) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static void sql(MySQLContainer server, String... statements) {
    try (Connection connection = connect(server);
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Connection connect(MySQLContainer server) throws SQLException {
    return DriverManager.getConnection(
        server.getJdbcUrl(), server.getUsername(), server.getPassword());
  }
}

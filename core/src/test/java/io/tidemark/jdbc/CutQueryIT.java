package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A query the read's socket bound cuts on the client does not run on to its end on the server,
 * holding its snapshot (on a standby, the replay every token waits for) and its locks: the server
 * is told to stop it.
 */
@ExtendWith(TestkitExtension.class)
class CutQueryIT {

  private static final Duration BUDGET = Duration.ofMillis(300);

  @Test
  void aQueryCutOnAMySqlReplicaIsStoppedThere(MySqlTopology topology) throws Exception {
    String db = topology.createDatabase("cut");
    MySqlNode replica = topology.replica();
    String sleep = "SELECT SLEEP(5) AS cut_on_mysql";
    try (HikariDataSource replicaPool = Pools.replica(replica, db, 2);
        HikariDataSource sourcePool = Pools.plain(topology.source(), db, 2)) {
      assertCutAndStopped(replicaPool, sourcePool, sleep, () -> noLongerRuns(replica, sleep));
    }
  }

  @Test
  void aQueryCutOnAPostgresStandbyIsStoppedThere() throws Exception {
    try (PostgresTopology topology = PostgresTopology.builder().standbys(1).start()) {
      PostgresOrders orders = new PostgresOrders(topology);
      PostgresNode standby = topology.standby();
      String sleep = "SELECT pg_sleep(5) AS cut_on_postgres";
      try (HikariDataSource standbyPool = orders.replicaPool(standby);
          HikariDataSource primaryPool = orders.pool(topology.primary())) {
        assertCutAndStopped(
            standbyPool,
            primaryPool,
            sleep,
            () ->
                count(
                        standby,
                        "SELECT count(*) FROM pg_stat_activity WHERE query = '" + sleep + "'")
                    == 0);
      }
    }
  }

  /** Through MariaDB Connector/J, which Tidemark asks the server's id of the session. */
  @Test
  void aQueryCutOnAMariaDbReplicaIsStoppedThere() throws Exception {
    try (MariaDbTopology topology = MariaDbTopology.builder().replicas(1).start()) {
      MariaDbNode replica = topology.replica();
      String sleep = "SELECT SLEEP(5) AS cut_on_mariadb";
      try (HikariDataSource replicaPool = ReplicaPools.create(mariaDb(replica));
          HikariDataSource sourcePool = new HikariDataSource(mariaDb(topology.source()))) {
        assertCutAndStopped(replicaPool, sourcePool, sleep, () -> noLongerRuns(replica, sleep));
      }
    }
  }

  private static HikariConfig mariaDb(MariaDbNode node) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:mariadb://" + node.host() + ":" + node.port() + "/");
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(2);
    return config;
  }

  private static void assertCutAndStopped(
      DataSource replica, DataSource source, String sleep, BooleanSupplier stopped) {
    ConsistentReader reader = Readers.failingAfter(replica, source, BUDGET);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThatThrownBy(
              () ->
                  reader.read(
                      c -> {
                        try (Statement s = c.createStatement();
                            ResultSet rs = s.executeQuery(sleep)) {
                          return rs.next();
                        }
                      }))
          .isInstanceOf(ConsistentReadException.class);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (!stopped.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline)
          .as("the server still runs the cut query 2 s after the read ended")
          .isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  /** Whether the MySQL or MariaDB server {@code node} no longer runs statement {@code sql}. */
  private static boolean noLongerRuns(DatabaseNode<?> node, String sql) {
    return "0"
        .equals(
            node.queryString(
                "SELECT COUNT(*) FROM information_schema.processlist WHERE info = '" + sql + "'"));
  }

  private static long count(PostgresNode node, String sql) {
    try (Connection c = DriverManager.getConnection(node.jdbcUrl(), node.user(), "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}

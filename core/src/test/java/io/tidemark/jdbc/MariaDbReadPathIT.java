package io.tidemark.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The read path's contract on MariaDB replication, a source and a replica run by the testkit,
 * through MariaDB Connector/J ({@code jdbc:mariadb:}) and through MySQL Connector/J, as an
 * application user granted its own database only.
 */
class MariaDbReadPathIT {

  static final String USER = "tidemark_app";
  private static MariaDbTopology topology;
  private static String db;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(1).start();
    db = topology.createDatabase("reads");
    topology
        .source()
        .execute(
            ReadPathContract.createOrders(db),
            "CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY 'app'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON `" + db + "`.* TO '" + USER + "'@'127.0.0.1'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (topology != null) {
      topology.close();
    }
  }

  /** The contract through {@code url}'s driver, on the topology's source and replica. */
  abstract static class Through extends ReadPathContract {
    private HikariDataSource sourcePool;
    private HikariDataSource replicaPool;
    private CapturingDataSource source;

    abstract String url(MariaDbNode node);

    @Override
    CapturingDataSource source() {
      if (source == null) {
        sourcePool = new HikariDataSource(config(topology.source(), 4));
        replicaPool = ReplicaPools.create(config(topology.replica(), 8));
        source = CapturingDataSource.wrap(sourcePool);
      }
      return source;
    }

    @Override
    DataSource sourcePool() {
      source();
      return sourcePool;
    }

    @Override
    DataSource replicaPool() {
      source();
      return replicaPool;
    }

    @org.junit.jupiter.api.AfterEach
    void closePools() {
      if (sourcePool != null) {
        sourcePool.close();
        replicaPool.close();
      }
    }

    private HikariConfig config(MariaDbNode node, int size) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(url(node));
      config.setUsername(USER);
      config.setPassword("app");
      config.setMaximumPoolSize(size);
      config.setMinimumIdle(0);
      config.setConnectionTimeout(5_000);
      return config;
    }

    @Override
    HikariDataSource singleConnectionReplicaPoolOnSource() {
      return ReplicaPools.create(config(topology.source(), 1));
    }

    @Override
    void pauseApplying() {
      topology.replica().pauseApplier();
    }

    @Override
    void resumeApplying() {
      if (!topology.replica().replicating()) {
        topology.replica().resumeApplier();
      }
    }

    @Override
    void freezeReplica() {
      topology.replica().freeze();
    }

    @Override
    void thawReplica() {
      topology.replica().thaw();
    }

    @Override
    void awaitRunningWait() {
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!"1"
          .equals(
              topology
                  .replica()
                  .queryString(
                      "SELECT COUNT(*) > 0 FROM information_schema.PROCESSLIST"
                          + " WHERE INFO LIKE '%SELECT MASTER_GTID_WAIT(%' AND USER = '"
                          + USER
                          + "'"))) {
        if (System.nanoTime() - end > 0) {
          throw new AssertionError("no wait ran on the replica within 10 s");
        }
        Thread.onSpinWait();
      }
    }

    @Override
    GtidSet foreignPosition() {
      return io.tidemark.dialect.MariaDbGtids.position(77, 1, 10);
    }
  }

  @Nested
  class ThroughMariaDbConnectorJ extends Through {
    @Override
    String url(MariaDbNode node) {
      return "jdbc:mariadb://" + node.host() + ":" + node.port() + "/" + db;
    }
  }

  @Nested
  class ThroughMySqlConnectorJ extends Through {
    @Override
    String url(MariaDbNode node) {
      return node.jdbcUrl(db);
    }
  }
}

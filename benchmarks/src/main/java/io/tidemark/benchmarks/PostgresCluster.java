package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL primary and one hot standby of the testkit on loopback, with a fresh database
 * holding table {@code t (id bigint PRIMARY KEY, v int)}, and the pools the benchmark opened on
 * them; as {@link Cluster} is for MySQL, servers shared by the trials of the smoke run.
 */
final class PostgresCluster implements AutoCloseable {

  private static final boolean REUSE = Boolean.getBoolean("tidemark.bench.reuseTopology");
  private static @Nullable PostgresTopology shared;

  final PostgresTopology topology;
  final PostgresNode primary;
  final PostgresNode standby;
  final String database;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  private PostgresCluster(PostgresTopology topology, String prefix) throws SQLException {
    this.topology = topology;
    this.primary = topology.primary();
    this.standby = topology.standby();
    this.database = topology.createDatabase(prefix);
    try (Connection c = connect(primary);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id bigint PRIMARY KEY, v int)");
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
  }

  static PostgresCluster start(String prefix) throws SQLException {
    return new PostgresCluster(topology(), prefix);
  }

  private static synchronized PostgresTopology topology() {
    if (!REUSE) {
      return PostgresTopology.builder().standbys(1).start();
    }
    if (shared == null) {
      // Stopped by the testkit when the JVM exits.
      shared = PostgresTopology.builder().standbys(1).start();
    }
    return shared;
  }

  HikariDataSource primaryPool(int size) {
    HikariDataSource pool = new HikariDataSource(config(primary, size));
    closeables.add(pool);
    return pool;
  }

  HikariDataSource standbyPool(int size) {
    HikariDataSource pool = ReplicaPools.create(config(standby, size));
    closeables.add(pool);
    return pool;
  }

  private HikariConfig config(PostgresNode node, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(node.jdbcUrl(database));
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setConnectionTimeout(10_000);
    config.setPoolName(node.name() + "-" + database + "-" + closeables.size());
    return config;
  }

  /** A connection of its own, outside any pool, on the benchmark's database. */
  Connection connect(PostgresNode node) throws SQLException {
    Connection c =
        DriverManager.getConnection(node.jdbcUrl(database), node.user(), node.password());
    closeables.add(c);
    return c;
  }

  @Override
  public void close() {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        // Closing after the measurement; a failure here cannot change a result.
      }
    }
    if (!REUSE) {
      topology.close();
    }
  }
}

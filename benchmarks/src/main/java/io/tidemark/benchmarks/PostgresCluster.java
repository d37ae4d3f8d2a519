package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A PostgreSQL primary and one hot standby of the testkit on loopback, with a fresh database
 * holding table {@code t (id bigint PRIMARY KEY, v int)}, and the pools the benchmark opened on
 * them.
 */
final class PostgresCluster extends BenchCluster<PostgresNode> implements SourceAndReplica {

  final PostgresTopology topology;
  final PostgresNode primary;
  final PostgresNode standby;

  private PostgresCluster(PostgresTopology topology, String prefix) throws SQLException {
    super(topology, prefix);
    this.topology = topology;
    this.primary = topology.primary();
    this.standby = topology.standby();
    try (Connection c = connect(primary);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id bigint PRIMARY KEY, v int)");
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
  }

  /** Starts (or, in the smoke run, reuses) the servers and creates the database. */
  static PostgresCluster start(String prefix) throws SQLException {
    return new PostgresCluster(
        topology(PostgresTopology.class, () -> PostgresTopology.builder().standbys(1).start()),
        prefix);
  }

  @Override
  public HikariDataSource sourcePool(int size) {
    return pool(primary, size, "", false);
  }

  @Override
  public HikariDataSource replicaPool(int size) {
    return pool(standby, size, "", true);
  }

  @Override
  public Connection connectReplica() throws SQLException {
    return connect(standby);
  }
}

package io.tidemark.benchmarks;

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
final class PostgresCluster extends BenchCluster<PostgresNode> {

  final PostgresTopology topology;

  private PostgresCluster(PostgresTopology topology, String prefix) throws SQLException {
    super(topology, prefix, topology.primary(), topology.standby());
    this.topology = topology;
    try (Connection c = connect(source);
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
}

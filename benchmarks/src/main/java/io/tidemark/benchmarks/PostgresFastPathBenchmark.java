package io.tidemark.benchmarks;

import java.sql.SQLException;

/**
 * {@link ReplicaFastPath} on a PostgreSQL hot standby. {@code bin/bench --server postgres} runs it.
 */
public class PostgresFastPathBenchmark extends ReplicaFastPath {

  @Override
  SourceAndReplica start(String prefix) throws SQLException {
    return PostgresCluster.start(prefix);
  }
}

package io.tidemark.benchmarks;

/** {@link ReplicaFastPath} on a MariaDB replica. {@code bin/bench --server mariadb} runs it. */
public class MariaDbFastPathBenchmark extends ReplicaFastPath {

  @Override
  SourceAndReplica start(String prefix) {
    return MariaDbCluster.start(prefix);
  }
}

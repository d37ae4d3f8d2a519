package io.tidemark.benchmarks;

/**
 * {@link ReplicaReadAfterWrite} on a MariaDB replica through MariaDB Connector/J: the dialect's
 * wait is {@code MASTER_GTID_WAIT} under a statement timer, sent on its own before the query (the
 * driver offers no session of Tidemark's to send it with the query). {@code bin/bench --server
 * mariadb} runs it.
 */
public class MariaDbReadAfterWriteBenchmark extends ReplicaReadAfterWrite {

  @Override
  SourceAndReplica start(String prefix) {
    return MariaDbCluster.start(prefix);
  }
}

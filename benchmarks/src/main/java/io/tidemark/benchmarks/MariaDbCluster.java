package io.tidemark.benchmarks;

import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.time.Duration;

/**
 * A MariaDB source and one replica of the testkit on loopback, with a fresh database holding table
 * {@code t (id BIGINT PRIMARY KEY, v INT)}, reached through MariaDB Connector/J as MariaDB
 * applications reach it, and the pools the benchmark opened on them.
 */
final class MariaDbCluster extends BenchCluster<MariaDbNode> {

  private MariaDbCluster(MariaDbTopology topology, String prefix) {
    super(topology, prefix, topology.source(), topology.replica());
    source.execute("CREATE TABLE `" + database + "`.t (id BIGINT PRIMARY KEY, v INT)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  /** Starts (or, in the smoke run, reuses) the servers and creates the database. */
  static MariaDbCluster start(String prefix) {
    return new MariaDbCluster(
        topology(MariaDbTopology.class, () -> MariaDbTopology.builder().replicas(1).start()),
        prefix);
  }

  @Override
  String url(MariaDbNode node) {
    return "jdbc:mariadb://" + node.host() + ":" + node.port() + "/" + database + "?";
  }
}

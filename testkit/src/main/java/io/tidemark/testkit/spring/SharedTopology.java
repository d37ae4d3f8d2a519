package io.tidemark.testkit.spring;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.util.List;

/**
 * The shared topology a {@link TestTopology.Server} names, with its writable node and the nodes
 * replicating from it now, whatever each database calls them.
 */
record SharedTopology(
    ReplicatedTopology<?> topology,
    DatabaseNode<?> source,
    List<? extends DatabaseNode<?>> replicas) {

  static SharedTopology of(TestTopology.Server server) {
    return switch (server) {
      case POSTGRESQL -> {
        PostgresTopology topology = SharedServers.postgres();
        yield new SharedTopology(topology, topology.primary(), topology.standbys());
      }
      case MARIADB -> {
        MariaDbTopology topology = SharedServers.mariadb();
        yield new SharedTopology(topology, topology.source(), topology.replicas());
      }
      case MYSQL -> {
        MySqlTopology topology = SharedServers.topology();
        yield new SharedTopology(topology, topology.source(), topology.replicas());
      }
    };
  }
}

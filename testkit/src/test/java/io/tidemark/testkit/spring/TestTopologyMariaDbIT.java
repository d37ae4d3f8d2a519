package io.tidemark.testkit.spring;

import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.SharedServers;

/** {@link TestTopology} on MariaDB: the source and its replica. */
@TestTopology(database = "shop", server = TestTopology.Server.MARIADB)
class TestTopologyMariaDbIT extends TestTopologyContract {

  @Override
  ReplicatedTopology<?> topology() {
    return SharedServers.mariadb();
  }
}

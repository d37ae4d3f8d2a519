package io.tidemark.testkit.spring;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.junit.SharedServers;

/** {@link TestTopology} on MariaDB: the source and its replica. */
@TestTopology(database = "shop", server = TestTopology.Server.MARIADB)
class TestTopologyMariaDbIT extends TestTopologyContract {

  @Override
  DatabaseNode<?> source() {
    return SharedServers.mariadb().source();
  }

  @Override
  DatabaseNode<?> replica() {
    return SharedServers.mariadb().replica();
  }
}

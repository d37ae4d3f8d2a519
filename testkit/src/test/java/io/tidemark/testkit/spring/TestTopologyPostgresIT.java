package io.tidemark.testkit.spring;

import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.SharedServers;

/** {@link TestTopology} on PostgreSQL: the primary and its hot standby. */
@TestTopology(database = "shop", server = TestTopology.Server.POSTGRESQL)
class TestTopologyPostgresIT extends TestTopologyContract {

  @Override
  ReplicatedTopology<?> topology() {
    return SharedServers.postgres();
  }
}

package io.tidemark.testkit.spring;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.junit.SharedServers;

/** {@link TestTopology} on PostgreSQL: the primary and its hot standby. */
@TestTopology(database = "shop", server = TestTopology.Server.POSTGRESQL)
class TestTopologyPostgresIT extends TestTopologyContract {

  @Override
  DatabaseNode<?> source() {
    return SharedServers.postgres().primary();
  }

  @Override
  DatabaseNode<?> replica() {
    return SharedServers.postgres().standby();
  }
}

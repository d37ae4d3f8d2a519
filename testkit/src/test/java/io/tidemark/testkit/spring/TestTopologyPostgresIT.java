package io.tidemark.testkit.spring;

/** {@link TestTopology} on PostgreSQL: the primary and its hot standby. */
@TestTopology(database = "shop", server = TestTopology.Server.POSTGRESQL)
class TestTopologyPostgresIT extends TestTopologyContract {}

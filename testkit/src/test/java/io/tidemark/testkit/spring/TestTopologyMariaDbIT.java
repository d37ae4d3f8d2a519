package io.tidemark.testkit.spring;

/** {@link TestTopology} on MariaDB: the source and its replica. */
@TestTopology(database = "shop", server = TestTopology.Server.MARIADB)
class TestTopologyMariaDbIT extends TestTopologyContract {}

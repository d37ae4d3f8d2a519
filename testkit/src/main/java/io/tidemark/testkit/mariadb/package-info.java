/**
 * Real MariaDB replication topologies for tests: {@link
 * io.tidemark.testkit.mariadb.MariaDbTopology}, one source and replicas replicating by GTID ({@code
 * MASTER_USE_GTID = slave_pos}, {@code gtid_strict_mode}) as local processes, with their faults
 * (applier pause, receiver stop, freeze, kill).
 */
@NullMarked
package io.tidemark.testkit.mariadb;

import org.jspecify.annotations.NullMarked;

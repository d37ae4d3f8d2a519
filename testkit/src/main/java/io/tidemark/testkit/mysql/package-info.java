/**
 * Real MySQL replication topologies for tests: {@link io.tidemark.testkit.mysql.MySqlTopology}, one
 * source and replicas as local processes or containers, with their faults (applier pause, receiver
 * stop, delay, freeze, kill, failover, errant transactions, snapshots).
 */
@NullMarked
package io.tidemark.testkit.mysql;

import org.jspecify.annotations.NullMarked;

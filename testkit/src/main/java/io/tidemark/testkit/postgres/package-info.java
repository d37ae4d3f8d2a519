/**
 * Real PostgreSQL streaming-replication topologies for tests: {@link
 * io.tidemark.testkit.postgres.PostgresTopology}, one primary and hot standbys as local processes,
 * with their faults (replay pause, receiver stop, freeze, kill, failover).
 */
@NullMarked
package io.tidemark.testkit.postgres;

import org.jspecify.annotations.NullMarked;

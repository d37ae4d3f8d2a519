/**
 * Which node runs a statement, decided when it runs: a {@link io.tidemark.topology.TopologyView}
 * reads each configured node's role, health and lag from the servers themselves (never from
 * configuration), and a {@link io.tidemark.topology.NodeSelector} picks the writable source for
 * writes and a fitting replica for reads, or says why there is none.
 */
@NullMarked
package io.tidemark.topology;

import org.jspecify.annotations.NullMarked;

package io.tidemark.spring.actuate;

import io.tidemark.topology.TopologySnapshot;
import java.util.function.Supplier;

/**
 * Configured node names for the {@code server_uuid}s that execution records carry, so that tags and
 * reports name nodes the way the configuration does and stay few: one value per configured node
 * plus {@value #NONE} and {@value #UNKNOWN}, never one per UUID.
 */
final class NodeNames {

  /** The name of "no node": the read failed before any server answered. */
  static final String NONE = "none";

  /** The name of a UUID no configured node has in the current snapshot, e.g. a rebuilt server. */
  static final String UNKNOWN = "unknown";

  private final Supplier<TopologySnapshot> topology;

  NodeNames(Supplier<TopologySnapshot> topology) {
    this.topology = topology;
  }

  /** The configured name of the node whose {@code server_uuid} is {@code serverUuid}. */
  String of(String serverUuid) {
    return serverUuid.isEmpty() ? NONE : topology.get().nameOf(serverUuid).orElse(UNKNOWN);
  }
}

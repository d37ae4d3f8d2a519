package io.tidemark.spring.actuate;

import io.tidemark.topology.NodeState;

/** The role a probe found a node in, as health and the endpoint name it. */
final class NodeRole {

  private NodeRole() {}

  /**
   * {@code source} for an available node that accepts writes, {@code replica} for a node with a
   * replication channel, {@code unknown} when the probe could not tell (the node did not answer).
   */
  static String of(NodeState node) {
    if (node.available() && node.writable()) {
      return "source";
    }
    return node.replica() ? "replica" : "unknown";
  }
}

package io.tidemark.topology;

import java.util.List;
import java.util.Optional;

/**
 * The nodes as last probed, in configuration order.
 *
 * @param nodes every configured node's last state
 */
public record TopologySnapshot(List<NodeState> nodes) {

  public TopologySnapshot {
    nodes = List.copyOf(nodes);
  }

  /**
   * The available nodes that accept writes: one normally, none mid-failover, two in split brain.
   */
  public List<NodeState> writable() {
    return nodes.stream().filter(n -> n.available() && n.writable()).toList();
  }

  /**
   * The configured name of the node whose {@code server_uuid} (PostgreSQL: its id) is {@code
   * serverUuid}, as execution records name nodes; empty when no node has it now.
   */
  public Optional<String> nameOf(String serverUuid) {
    return nodes.stream()
        .filter(n -> serverUuid.equals(n.serverUuid()))
        .map(NodeState::name)
        .findFirst();
  }

  /** The node called {@code name}. */
  public Optional<NodeState> node(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
  }
}

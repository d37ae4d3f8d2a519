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

  /** The node called {@code name}. */
  public Optional<NodeState> node(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
  }
}

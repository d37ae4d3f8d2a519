package io.tidemark.topology;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

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
   * The available nodes that accept writes and could each be the source: one normally, none
   * mid-failover, two in split brain. A {@linkplain #writableReplicas() replica left writable} is
   * none of them.
   */
  public List<NodeState> writable() {
    List<NodeState> accepting = accepting();
    return accepting.stream().filter(n -> !leftWritable(n, accepting)).toList();
  }

  /**
   * Replicas that accept writes though no source would let them be one (a replica restarted without
   * a persisted {@code read_only}): each receives (or keeps trying to) from a node that does not
   * accept writes or is not available, or from one that accepts writes, is not received from by it
   * and never executed a transaction of the replica's own. Neither written to nor read from, and
   * misconfigured until {@code read_only} is on.
   */
  public List<NodeState> writableReplicas() {
    List<NodeState> accepting = accepting();
    return accepting.stream().filter(n -> leftWritable(n, accepting)).toList();
  }

  private List<NodeState> accepting() {
    return nodes.stream().filter(n -> n.available() && n.writable()).toList();
  }

  private static boolean leftWritable(NodeState node, List<NodeState> accepting) {
    String from = node.replicatesFrom();
    String uuid = node.serverUuid();
    if (from == null || uuid == null) {
      return false;
    }
    for (NodeState source : accepting) {
      if (from.equals(source.serverUuid())) {
        return !uuid.equals(source.replicatesFrom())
            && !source.gtidExecuted().uuids().contains(UUID.fromString(uuid));
      }
    }
    // Its source is down, unreachable or read-only: receiving from it, this node is no source.
    return true;
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

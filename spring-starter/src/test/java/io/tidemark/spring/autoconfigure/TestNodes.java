package io.tidemark.spring.autoconfigure;

import io.tidemark.GtidSet;
import io.tidemark.topology.NodeState;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Node states as a probe reports them, for tests that feed snapshots. */
public final class TestNodes {

  public static final String SOURCE_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  public static final String REPLICA_UUID = "4f22ab58-82db-22f2-af44-d91bba53a673";

  private TestNodes() {}

  public static NodeState source(String name, String uuid) {
    return new NodeState(
        name,
        NodeState.Availability.AVAILABLE,
        "",
        List.of(),
        uuid,
        true,
        false,
        false,
        false,
        null,
        true,
        GtidSet.parse(uuid + ":1-10"),
        GtidSet.EMPTY,
        Set.of(),
        Duration.ZERO,
        null);
  }

  public static NodeState replica(String name, String uuid, Duration lag) {
    return new NodeState(
        name,
        NodeState.Availability.AVAILABLE,
        "",
        List.of(),
        uuid,
        false,
        true,
        true,
        true,
        SOURCE_UUID,
        true,
        GtidSet.parse(SOURCE_UUID + ":1-9"),
        GtidSet.EMPTY,
        Set.of(),
        lag,
        null);
  }

  public static NodeState withErrant(NodeState node, String errant) {
    return new NodeState(
        node.name(),
        node.availability(),
        node.detail(),
        node.grants(),
        node.serverUuid(),
        node.writable(),
        node.superReadOnly(),
        node.replica(),
        node.replicating(),
        node.replicatesFrom(),
        node.gtidModeOn(),
        node.gtidExecuted(),
        GtidSet.parse(errant),
        node.filteredTables(),
        node.lag(),
        null);
  }

  public static NodeState notReplicating(NodeState node) {
    return new NodeState(
        node.name(),
        node.availability(),
        node.detail(),
        node.grants(),
        node.serverUuid(),
        node.writable(),
        node.superReadOnly(),
        node.replica(),
        false,
        null,
        node.gtidModeOn(),
        node.gtidExecuted(),
        node.errant(),
        node.filteredTables(),
        node.lag(),
        null);
  }

  public static NodeState writable(NodeState node) {
    return new NodeState(
        node.name(),
        node.availability(),
        node.detail(),
        node.grants(),
        node.serverUuid(),
        true,
        false,
        node.replica(),
        node.replicating(),
        node.replicatesFrom(),
        node.gtidModeOn(),
        node.gtidExecuted(),
        node.errant(),
        node.filteredTables(),
        node.lag(),
        null);
  }

  public static NodeState failed(String name, NodeState.Availability availability, String detail) {
    return NodeState.failed(name, availability, detail);
  }
}

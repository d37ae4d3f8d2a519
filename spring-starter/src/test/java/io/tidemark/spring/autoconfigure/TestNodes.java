package io.tidemark.spring.autoconfigure;

import io.tidemark.GtidSet;
import io.tidemark.topology.NodeState;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Node states as a probe reports them, for tests that feed snapshots. */
public final class TestNodes {

  public static final String SOURCE_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  public static final String REPLICA_UUID = "4f22ab58-82db-22f2-af44-d91bba53a673";

  private TestNodes() {}

  public static NodeState source(String name, String uuid) {
    Parts source = new Parts(name, uuid);
    source.writable = true;
    source.gtidExecuted = GtidSet.parse(uuid + ":1-10");
    return source.build();
  }

  public static NodeState replica(String name, String uuid, Duration lag) {
    Parts replica = new Parts(name, uuid);
    replica.superReadOnly = true;
    replica.replica = true;
    replica.replicating = true;
    replica.replicatesFrom = SOURCE_UUID;
    replica.gtidExecuted = GtidSet.parse(SOURCE_UUID + ":1-9");
    replica.lag = lag;
    return replica.build();
  }

  public static NodeState withErrant(NodeState node, String errant) {
    Parts changed = new Parts(node);
    changed.errant = GtidSet.parse(errant);
    return changed.build();
  }

  public static NodeState notReplicating(NodeState node) {
    Parts changed = new Parts(node);
    changed.replicating = false;
    changed.replicatesFrom = null;
    return changed.build();
  }

  public static NodeState writable(NodeState node) {
    Parts changed = new Parts(node);
    changed.writable = true;
    changed.superReadOnly = false;
    return changed.build();
  }

  public static NodeState failed(String name, NodeState.Availability availability, String detail) {
    return NodeState.failed(name, availability, detail);
  }

  /** The components of a node state as a probe reports it, some changed before it is built. */
  private static final class Parts {
    private final String name;
    private final NodeState.Availability availability;
    private final String detail;
    private final List<String> grants;
    private final @Nullable String serverUuid;
    boolean writable;
    boolean superReadOnly;
    boolean replica;
    boolean replicating;
    @Nullable String replicatesFrom;
    private final boolean gtidModeOn;
    GtidSet gtidExecuted = GtidSet.EMPTY;
    GtidSet errant = GtidSet.EMPTY;
    private final Set<String> filteredTables;
    Duration lag = Duration.ZERO;

    /** An available node of {@code uuid} with GTIDs on, neither writable nor replicating. */
    Parts(String name, String uuid) {
      this.name = name;
      this.availability = NodeState.Availability.AVAILABLE;
      this.detail = "";
      this.grants = List.of();
      this.serverUuid = uuid;
      this.gtidModeOn = true;
      this.filteredTables = Set.of();
    }

    /** The components of {@code node}, but the server it names. */
    Parts(NodeState node) {
      this.name = node.name();
      this.availability = node.availability();
      this.detail = node.detail();
      this.grants = node.grants();
      this.serverUuid = node.serverUuid();
      this.writable = node.writable();
      this.superReadOnly = node.superReadOnly();
      this.replica = node.replica();
      this.replicating = node.replicating();
      this.replicatesFrom = node.replicatesFrom();
      this.gtidModeOn = node.gtidModeOn();
      this.gtidExecuted = node.gtidExecuted();
      this.errant = node.errant();
      this.filteredTables = node.filteredTables();
      this.lag = node.lag();
    }

    NodeState build() {
      return new NodeState(
          name,
          availability,
          detail,
          grants,
          serverUuid,
          writable,
          superReadOnly,
          replica,
          replicating,
          replicatesFrom,
          gtidModeOn,
          gtidExecuted,
          errant,
          filteredTables,
          lag,
          null);
    }
  }
}

package io.tidemark.topology;

import static io.tidemark.topology.Conditions.assertSplitBrain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.topology.NodeState.Availability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeSelectorTests {

  private static final String SOURCE_UUID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  private static final GtidSet UP_TO_5 = GtidSet.parse(SOURCE_UUID + ":1-5");
  private static final GtidSet UP_TO_9 = GtidSet.parse(SOURCE_UUID + ":1-9");

  private final List<NodeState> nodes = new ArrayList<>();
  private final NodeSelector selector =
      new NodeSelector(() -> new TopologySnapshot(nodes), Duration.ofSeconds(1));

  @Test
  void writesGoToTheOnlyWritableNode() {
    nodes.add(source("db1"));
    nodes.add(replica("db2", UP_TO_9, Duration.ZERO));

    assertThat(selector.writer().node().name()).isEqualTo("db1");
  }

  @Test
  void noWritableNodeOrTwoAreRefusedWithTheirReason() {
    nodes.add(replica("db2", UP_TO_9, Duration.ZERO));
    assertThat(selector.writer().reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);

    nodes.add(source("db1"));
    nodes.add(source("db3"));
    assertSplitBrain(selector, "db1", "db3");
  }

  @Test
  void readsPreferAReplicaKnownToHoldTheTokenOverALessLaggingOne() {
    nodes.add(source("db1"));
    nodes.add(replica("db2", UP_TO_5, Duration.ZERO));
    nodes.add(replica("db3", UP_TO_9, Duration.ofMillis(300)));

    NodeSelector.Choice choice = selector.replicaFor(UP_TO_9);

    assertThat(choice.node().name()).isEqualTo("db3");
    assertThat(choice.reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
  }

  @Test
  void withoutAHolderTheLeastLaggingReplicaIsChosen() {
    nodes.add(replica("db2", UP_TO_5, Duration.ofMillis(200)));
    nodes.add(replica("db3", UP_TO_5, Duration.ofMillis(100)));

    NodeSelector.Choice choice = selector.replicaFor(UP_TO_9);

    assertThat(choice.node().name()).isEqualTo("db3");
    assertThat(choice.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
  }

  @Test
  void equalReplicasTakeTurns() {
    nodes.add(replica("db2", UP_TO_9, Duration.ZERO));
    nodes.add(replica("db3", UP_TO_9, Duration.ZERO));

    List<String> chosen = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      chosen.add(selector.replicaFor(GtidSet.EMPTY).node().name());
    }

    assertThat(chosen).containsExactly("db2", "db3", "db2", "db3");
  }

  @Test
  void laggingReadOnlyAuthFailedAndErrantNodesAreNotRead() {
    nodes.add(replica("lagging", UP_TO_9, Duration.ofSeconds(2)));
    assertThat(selector.replicaFor(GtidSet.EMPTY).reason()).isEqualTo(Reason.REPLICA_LAG_EXCEEDED);

    nodes.clear();
    nodes.add(NodeState.failed("refused", Availability.AUTH_FAILED, "Access denied"));
    nodes.add(
        node(
            "errant",
            false,
            UP_TO_9,
            GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1"),
            Set.of(),
            Duration.ZERO));
    assertThat(selector.replicaFor(GtidSet.EMPTY).reason()).isEqualTo(Reason.NO_READABLE_REPLICA);
  }

  @Test
  void replicasWhoseFiltersLeaveOutATableReadAreNotChosenForIt() {
    nodes.add(node("filtered", false, UP_TO_9, GtidSet.EMPTY, Set.of("shop.audit"), Duration.ZERO));
    nodes.add(replica("full", UP_TO_9, Duration.ofMillis(100)));

    for (int i = 0; i < 3; i++) {
      assertThat(selector.replicaFor(UP_TO_9, Set.of("Shop.Audit")).node().name())
          .isEqualTo("full");
    }
    assertThat(selector.replicaFor(UP_TO_9, Set.of("shop.orders")).node().name())
        .isIn("filtered", "full");
  }

  @Test
  void negativeLagThresholdIsRefused() {
    assertThatThrownBy(
            () -> new NodeSelector(() -> new TopologySnapshot(nodes), Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static NodeState source(String name) {
    return node(name, true, UP_TO_9, GtidSet.EMPTY, Set.of(), Duration.ZERO);
  }

  private static NodeState replica(String name, GtidSet executed, Duration lag) {
    return node(name, false, executed, GtidSet.EMPTY, Set.of(), lag);
  }

  private static NodeState node(
      String name,
      boolean writable,
      GtidSet executed,
      GtidSet errant,
      Set<String> filteredTables,
      Duration lag) {
    return new NodeState(
        name,
        Availability.AVAILABLE,
        "",
        List.of(),
        writable ? SOURCE_UUID : "cccccccc-cccc-cccc-cccc-cccccccccccc",
        writable,
        !writable,
        !writable,
        !writable,
        writable ? null : SOURCE_UUID,
        true,
        executed,
        errant,
        filteredTables,
        lag,
        null);
  }
}

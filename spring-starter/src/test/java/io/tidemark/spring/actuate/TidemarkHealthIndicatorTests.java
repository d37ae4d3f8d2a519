package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.TestNodes.REPLICA_UUID;
import static io.tidemark.spring.autoconfigure.TestNodes.SOURCE_UUID;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ReadPolicy;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class TidemarkHealthIndicatorTests {

  private static final NodeState SOURCE = TestNodes.source("source", SOURCE_UUID);
  private static final NodeState REPLICA =
      TestNodes.replica("replica-1", REPLICA_UUID, Duration.ofMillis(12));
  private static final NodeState SECOND_REPLICA =
      TestNodes.replica("replica-2", "6b44cd7a-a4fd-44b4-a166-fb3ddc75c895", Duration.ZERO);
  private static final NodeState UNREACHABLE_SOURCE =
      TestNodes.failed("source", NodeState.Availability.UNREACHABLE, "connect timed out");

  @Test
  void upWithRolesAndLagWhenSourceAndReplicaServe() {
    Health health = health(SOURCE, REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).doesNotContainKey("problems");
    assertThat(node(health, "source"))
        .containsEntry("role", "source")
        .containsEntry("availability", "AVAILABLE")
        .containsEntry("serverUuid", SOURCE_UUID)
        .doesNotContainKey("lagMillis");
    assertThat(node(health, "replica-1"))
        .containsEntry("role", "replica")
        .containsEntry("readable", true)
        .containsEntry("replicating", true)
        .containsEntry("lagMillis", 12L);
  }

  @Test
  void downWithoutAWritableSource() {
    Health health = health(UNREACHABLE_SOURCE, REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat(problems(health))
        .contains("no writable source: no available node accepts writes")
        .contains("source is unreachable: connect timed out");
    assertThat(node(health, "source")).containsEntry("role", "unknown");
  }

  @Test
  void downInSplitBrain() {
    Health health =
        health(SOURCE, TestNodes.writable(TestNodes.notReplicating(REPLICA)), SECOND_REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat(problems(health))
        .anyMatch(p -> p.startsWith("split brain: source, replica-1 all accept writes"));
  }

  @Test
  void upWithAReplicaLeftWritableAsAProblem() {
    Health health = health(SOURCE, TestNodes.writable(REPLICA), SECOND_REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(problems(health))
        .containsExactly(
            "replica-1 is a replica that accepts writes (read_only off) and replicates from the"
                + " source: it is neither written to nor read from until read_only is on");
  }

  @ParameterizedTest
  @EnumSource(
      value = ReadPolicy.class,
      names = {"RETRY", "FAIL"})
  void downWithoutAReadableReplicaWhenReadsDoNotFallBack(ReadPolicy policy) {
    Health health = health(policy, SOURCE, TestNodes.withErrant(REPLICA, REPLICA_UUID + ":1-3"));

    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat(problems(health))
        .anyMatch(p -> p.startsWith("no readable replica"))
        .contains("replica-1 has errant GTIDs " + REPLICA_UUID + ":1-3; it is not read from");
    assertThat(node(health, "replica-1")).containsEntry("errant", REPLICA_UUID + ":1-3");
  }

  @Test
  void upWithTheProblemWithoutAReadableReplicaWhenReadsFallBackToTheSource() {
    Health health =
        health(
            ReadPolicy.FALLBACK_TO_SOURCE,
            SOURCE,
            TestNodes.withErrant(REPLICA, REPLICA_UUID + ":1-3"));

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(problems(health))
        .containsExactly(
            "no readable replica: reads under @ReadYourWrites fall back to the source",
            "replica-1 has errant GTIDs " + REPLICA_UUID + ":1-3; it is not read from");
  }

  @ParameterizedTest
  @EnumSource(ReadPolicy.class)
  void downWithoutAWritableSourceWhateverTheReadPolicy(ReadPolicy policy) {
    Health health = health(policy, UNREACHABLE_SOURCE, REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
  }

  @Test
  void upWithProblemsWhileAnotherReplicaStillServes() {
    Health health =
        health(
            SOURCE,
            TestNodes.failed("replica-1", NodeState.Availability.AUTH_FAILED, "Access denied"),
            SECOND_REPLICA);

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(problems(health))
        .containsExactly("replica-1 refused Tidemark's login: Access denied");
    assertThat(node(health, "replica-1")).containsEntry("availability", "AUTH_FAILED");
  }

  @Test
  void upWithProblemsForAStoppedOrLaggingReplica() {
    Health health =
        health(
            SOURCE,
            TestNodes.notReplicating(REPLICA),
            TestNodes.replica(
                "replica-2", "6b44cd7a-a4fd-44b4-a166-fb3ddc75c895", Duration.ofSeconds(9)));

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(problems(health))
        .containsExactly(
            "replica-1 is not replicating: its receiver or applier is stopped",
            "replica-2 lags 9000 ms, more than tidemark.topology.max-lag (5000 ms); it is not read"
                + " from");
  }

  private static Health health(NodeState... nodes) {
    return health(ReadPolicy.FAIL, nodes);
  }

  private static Health health(ReadPolicy policy, NodeState... nodes) {
    return new TidemarkHealthIndicator(
            () -> new TopologySnapshot(List.of(nodes)), Duration.ofSeconds(5), policy)
        .health();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> node(Health health, String name) {
    return (Map<String, Object>) ((Map<String, Object>) health.getDetails().get("nodes")).get(name);
  }

  @SuppressWarnings("unchecked")
  private static List<String> problems(Health health) {
    return (List<String>) health.getDetails().get("problems");
  }
}

package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestNodes.REPLICA_UUID;
import static io.tidemark.spring.autoconfigure.TestNodes.SOURCE_UUID;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.Reason;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryAfterTests {

  private static final NodeState SOURCE = TestNodes.source("source", SOURCE_UUID);
  private static final String OTHER_UUID = "6b44cd7a-a4fd-44b4-a166-fb3ddc75c895";

  @Test
  void aReplicaBehindIsWaitedForAsLongAsTheLeastLaggingReadableReplicaLags() {
    RetryAfter retryAfter =
        retryAfter(
            SOURCE,
            TestNodes.replica("replica-1", REPLICA_UUID, Duration.ofMillis(2300)),
            TestNodes.replica("replica-2", OTHER_UUID, Duration.ofSeconds(4)));

    assertThat(retryAfter.seconds(Reason.WAIT_TIMEOUT)).isEqualTo(3);
    assertThat(retryAfter.seconds(Reason.BUDGET_EXHAUSTED)).isEqualTo(3);
    assertThat(retryAfter.seconds(Reason.REPLICA_LAG_EXCEEDED)).isEqualTo(3);
  }

  @Test
  void isAtLeastASecondAndAtMostTheCeiling() {
    assertThat(
            retryAfter(SOURCE, TestNodes.replica("replica-1", REPLICA_UUID, Duration.ZERO))
                .seconds(Reason.WAIT_TIMEOUT))
        .isEqualTo(1);
    assertThat(
            retryAfter(SOURCE, TestNodes.replica("replica-1", REPLICA_UUID, Duration.ofHours(2)))
                .seconds(Reason.WAIT_TIMEOUT))
        .isEqualTo(30);
  }

  @Test
  void leavesOutReplicasThatAreNotReadFrom() {
    RetryAfter retryAfter =
        retryAfter(
            SOURCE,
            TestNodes.withErrant(
                TestNodes.replica("replica-1", REPLICA_UUID, Duration.ZERO), REPLICA_UUID + ":1"),
            TestNodes.replica("replica-2", OTHER_UUID, Duration.ofSeconds(7)));

    assertThat(retryAfter.seconds(Reason.WAIT_TIMEOUT)).isEqualTo(7);
  }

  @Test
  void fallsBackWhenLagDoesNotExplainTheRefusalOrIsNotKnown() {
    RetryAfter lagging =
        retryAfter(SOURCE, TestNodes.replica("replica-1", REPLICA_UUID, Duration.ofSeconds(9)));
    assertThat(lagging.seconds(Reason.NO_WRITABLE_SOURCE)).isEqualTo(2);
    assertThat(lagging.seconds(Reason.DATABASE_BUSY)).isEqualTo(2);

    assertThat(retryAfter(SOURCE).seconds(Reason.WAIT_TIMEOUT)).isEqualTo(2);
    assertThat(
            new RetryAfter(() -> null, Duration.ofMillis(1500), Duration.ofSeconds(30))
                .seconds(Reason.WAIT_TIMEOUT))
        .isEqualTo(2);
  }

  private static RetryAfter retryAfter(NodeState... nodes) {
    return new RetryAfter(
        () -> new TopologySnapshot(List.of(nodes)),
        Duration.ofMillis(1500),
        Duration.ofSeconds(30));
  }
}

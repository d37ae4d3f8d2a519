package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ExecutionHistoryTests {

  @Test
  void keepsTheNewestRecordsAndCountsAll() {
    ExecutionHistory history = new ExecutionHistory(2);

    history.accept(record("db2", Reason.REPLICA_AFTER_WAIT));
    history.accept(record("db3", Reason.REPLICA_CAUGHT_UP));
    history.accept(record("db2", Reason.REPLICA_AFTER_WAIT));

    assertThat(history.recent()).extracting(ExecutionRecord::node).containsExactly("db2", "db3");
    assertThat(history.count("db2", Reason.REPLICA_AFTER_WAIT)).isEqualTo(2);
    assertThat(history.count("db1", Reason.SOURCE_FALLBACK)).isZero();
    assertThat(history.counts())
        .containsEntry("db2/REPLICA_AFTER_WAIT", 2L)
        .containsEntry("db3/REPLICA_CAUGHT_UP", 1L);
  }

  @Test
  void refusesAnEmptyCapacity() {
    assertThatThrownBy(() -> new ExecutionHistory(0)).isInstanceOf(IllegalArgumentException.class);
  }

  private static ExecutionRecord record(String node, Reason reason) {
    return new ExecutionRecord(
        node,
        NodeRole.REPLICA,
        reason,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofMillis(1));
  }
}

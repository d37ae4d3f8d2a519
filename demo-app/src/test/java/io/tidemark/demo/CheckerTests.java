package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.demo.Operation.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckerTests {

  private static final long MS = 1_000_000;

  @Test
  void countsStaleMissingLateAndRefusedReads() {
    List<Operation> history =
        List.of(
            new Operation(1, 0, Kind.WRITE, 0, 0, 5 * MS, 201, 1, -1, ""),
            new Operation(1, 1, Kind.READ, 5 * MS, 5 * MS, 9 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"),
            new Operation(1, 2, Kind.WRITE, 9 * MS, 9 * MS, 12 * MS, 200, 2, -1, ""),
            new Operation(
                1, 3, Kind.READ, 12 * MS, 12 * MS, 15 * MS, 200, 1, 2, "REPLICA_NO_TOKEN"),
            new Operation(2, 1, Kind.READ, 0, 0, 3 * MS, 404, -1, 1, "PLAIN_REPLICA_READ"),
            new Operation(3, 1, Kind.READ, 0, 50 * MS, 120 * MS, 200, 4, 4, "SOURCE_FALLBACK"),
            new Operation(4, 1, Kind.READ, 0, 0, 30 * MS, 503, -1, 1, "WAIT_TIMEOUT"));

    Checker.Verdict verdict = Checker.check(history, Duration.ofMillis(100));

    assertThat(verdict.writes()).isEqualTo(2);
    assertThat(verdict.reads()).isEqualTo(4);
    assertThat(verdict.stale()).isEqualTo(1);
    assertThat(verdict.notFound()).isEqualTo(1);
    assertThat(verdict.pastDeadline()).as("late from when it was due, not when sent").isEqualTo(1);
    assertThat(verdict.refusals()).isEqualTo(Map.of("503 WAIT_TIMEOUT", 1L));
  }
}

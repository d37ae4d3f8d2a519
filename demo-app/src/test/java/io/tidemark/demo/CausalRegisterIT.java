package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.TestkitExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The causal-register workload through two instances while the replica keeps falling behind, its
 * history checked: with Tidemark no read is stale or "not found" for an acknowledged write and none
 * is late; the same workload reading the replica directly (the negative control) is caught stale,
 * so the checker is known to see stale reads.
 */
@ExtendWith(TestkitExtension.class)
class CausalRegisterIT {

  /** The demo's read budget plus room for the HTTP exchange around it. */
  private static final Duration DEADLINE = Duration.ofMillis(2_000 + 300);

  private static MySqlTopology topology;
  private static Demo demo;

  @BeforeAll
  static void start(MySqlTopology shared, RedisServer redis) {
    topology = shared;
    demo = Demo.start(topology, redis, 0);
  }

  @AfterAll
  static void stop() {
    demo.close();
  }

  @Test
  void noStaleOrMissingReadWithTidemarkAndSomeWithout() {
    Checker.Verdict with;
    Checker.Verdict without;
    try (ReplicationLag lag =
        ReplicationLag.start(topology.replica(), Duration.ofMillis(300), Duration.ofMillis(50))) {
      with = Checker.check(run(true), DEADLINE);
      without = Checker.check(run(false), DEADLINE);
    }
    System.out.println("figures: causal register with Tidemark: " + with.summary());
    System.out.println("figures: causal register without (control): " + without.summary());

    assertThat(with.writes()).isEqualTo(90);
    assertThat(with.reads()).isEqualTo(90);
    assertThat(with.stale()).isZero();
    assertThat(with.notFound()).isZero();
    assertThat(with.pastDeadline()).isZero();
    assertThat(without.stale() + without.notFound()).as("the control's stale reads").isPositive();
  }

  private static List<Operation> run(boolean tidemark) {
    return new CausalRegister(demo.firstUrl(), demo.secondUrl(), tidemark).run(30, 3, 100);
  }
}

package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.TestkitExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The demo's printed scenario on the real servers: with Tidemark off some reads right after their
 * write miss it; with Tidemark on none does.
 */
@ExtendWith(TestkitExtension.class)
class DemoMainIT {

  @Test
  void tidemarkOffReadsStaleAndOnReadsNothingStale(MySqlTopology topology, RedisServer redis) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Scenario.Result off;
    Scenario.Result on;
    try (Demo demo = Demo.start(topology, redis, 0)) {
      demo.faults().injectLag(DemoMain.HELD, DemoMain.RELEASED);
      DemoMain.run(topology, redis, demo, new PrintStream(bytes, true, StandardCharsets.UTF_8));
      off = demo.run(DemoMain.CLIENTS, false);
      on = demo.run(DemoMain.CLIENTS, true);
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(out);

    assertThat(out)
        .contains(Scenario.Result.header())
        .containsPattern("(?m)^off +\\|")
        .containsPattern("(?m)^on +\\| +40 \\| +0 \\|");
    assertThat(off.stale()).as("stale reads without Tidemark").isPositive();
    assertThat(on.stale()).as("stale reads with Tidemark").isZero();
    assertThat(on.failures()).isZero();
    assertThat(on.fromReplica() + on.sourceFallbacks()).isEqualTo(on.reads());
    assertThat(on.fromReplica()).as("most reads stay on the replica").isGreaterThan(on.reads() / 2);
  }
}

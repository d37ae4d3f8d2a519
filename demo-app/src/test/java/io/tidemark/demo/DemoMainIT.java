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

@ExtendWith(TestkitExtension.class)
class DemoMainIT {

  @Test
  void showsTheStaleReadAndTheReadAfterTheWait(MySqlTopology topology, RedisServer redis) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    DemoMain.run(topology, redis, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out)
        .contains("Replica read right after: not found (stale)")
        .contains("WAIT_FOR_EXECUTED_GTID_SET returned 0")
        .contains("Replica read after the wait: found, status created");
  }
}

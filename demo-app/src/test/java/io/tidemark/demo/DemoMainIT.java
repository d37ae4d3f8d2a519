package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.web.client.RestClient;

/**
 * The demo's printed scenario on the real servers, MySQL and PostgreSQL: with Tidemark off some
 * reads right after their write miss it; with Tidemark on none does.
 */
@ExtendWith(TestkitExtension.class)
class DemoMainIT {

  @Test
  void tidemarkOffReadsStaleAndOnReadsNothingStale(MySqlTopology topology, RedisServer redis) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Scenario.Result off;
    Scenario.Result on;
    try (Demo demo = Demo.start(topology, redis, 0)) {
      demo.injectLag(DemoMain.HELD, DemoMain.RELEASED);
      DemoMain.run(
          DemoMain.servers(topology, redis),
          demo,
          new PrintStream(bytes, true, StandardCharsets.UTF_8));
      off = demo.run(DemoMain.CLIENTS, false);
      on = demo.run(DemoMain.CLIENTS, true);
    }
    assertTable(bytes, off, on);
  }

  @Test
  void onPostgresTidemarkOffReadsStaleAndOnReadsNothingStale(RedisServer redis) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Scenario.Result off;
    Scenario.Result on;
    try (PostgresTopology topology = PostgresTopology.builder().standbys(1).start();
        Demo demo = Demo.start(topology, redis, 0)) {
      demo.injectLag(DemoMain.HELD, DemoMain.RELEASED);
      DemoMain.run(
          DemoMain.servers(topology, redis),
          demo,
          new PrintStream(bytes, true, StandardCharsets.UTF_8));
      off = demo.run(DemoMain.CLIENTS, false);
      on = demo.run(DemoMain.CLIENTS, true);
      RestClient service = RestClient.create(demo.firstUrl());
      Order created = service.post().uri("/api/orders?customer=pg").retrieve().body(Order.class);
      assertThat(created).isNotNull();
      Order updated =
          service
              .put()
              .uri("/api/orders/{id}/status?status=PAID", created.id())
              .retrieve()
              .body(Order.class);
      assertThat(updated).as("an update without a customer").isNotNull();
      assertThat(updated.revision()).isEqualTo(created.revision() + 1);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .startsWith("PostgreSQL primary + hot standby up in");
    assertTable(bytes, off, on);
  }

  @Test
  void refusesAnUnknownOption() {
    assertThatThrownBy(() -> DemoMain.main(new String[] {"--postgress"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--postgress")
        .hasMessageContaining("usage: bin/demo [--postgres] [--exit]");
  }

  private static void assertTable(
      ByteArrayOutputStream bytes, Scenario.Result off, Scenario.Result on) {
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

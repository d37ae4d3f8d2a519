package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mariadb.MariaDbTopology;
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
 * The demo's printed scenario on the real servers, MySQL, PostgreSQL and MariaDB: with Tidemark off
 * some reads right after their write miss it; with Tidemark on none does.
 */
@ExtendWith(TestkitExtension.class)
class DemoMainIT {

  @Test
  void tidemarkOffReadsStaleAndOnReadsNothingStale(MySqlTopology topology, RedisServer redis) {
    assertScenarioAndUpdate(topology, redis, "MySQL source + replica up in");
  }

  @Test
  void onPostgresTidemarkOffReadsStaleAndOnReadsNothingStale(RedisServer redis) {
    try (PostgresTopology topology = PostgresTopology.builder().standbys(1).start()) {
      assertScenarioAndUpdate(topology, redis, "PostgreSQL primary + hot standby up in");
    }
  }

  /** The instances reach MariaDB through MariaDB Connector/J, its lag the applier paused. */
  @Test
  void onMariaDbTidemarkOffReadsStaleAndOnReadsNothingStale(RedisServer redis) {
    try (MariaDbTopology topology = MariaDbTopology.builder().start()) {
      assertScenarioAndUpdate(topology, redis, "MariaDB source + replica up in");
    }
  }

  /**
   * The demo on {@code topology}, whose lag {@link Demo#injectLag} makes without the page's faults:
   * the printed scenario begins with {@code servers}, and an order's status changes without its
   * customer.
   */
  private static void assertScenarioAndUpdate(
      ReplicatedTopology<?> topology, RedisServer redis, String servers) {
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
      RestClient service = RestClient.create(demo.firstUrl());
      Order created = service.post().uri("/api/orders?customer=ada").retrieve().body(Order.class);
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
    assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith(servers);
    assertTable(bytes, off, on);
  }

  @Test
  void refusesTwoDatabases() {
    assertThatThrownBy(() -> DemoMain.main(new String[] {"--postgres", "--mariadb"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one database at a time")
        .hasMessageContaining("usage: bin/demo [--postgres | --mariadb] [--exit]");
  }

  @Test
  void refusesAnUnknownOption() {
    assertThatThrownBy(() -> DemoMain.main(new String[] {"--postgress"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--postgress")
        .hasMessageContaining("usage: bin/demo [--postgres | --mariadb] [--exit]");
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

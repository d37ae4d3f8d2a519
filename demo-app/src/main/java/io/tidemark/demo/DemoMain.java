package io.tidemark.demo;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a real MySQL source and replica (with a little replication lag injected) and Redis, two
 * instances of the orders service, and runs the scenario with Tidemark off, then on, printing what
 * the clients saw; then serves the page until Ctrl-C ({@code --exit} stops at once).
 */
public final class DemoMain {

  static final int CLIENTS = 40;

  private DemoMain() {}

  public static void main(String[] args) throws InterruptedException {
    List<String> options = List.of(args);
    int port = options.contains("--exit") ? 0 : 8080;
    try (MySqlTopology topology = MySqlTopology.builder().start();
        RedisServer redis = RedisServer.start();
        Demo demo = Demo.start(topology, redis, port)) {
      demo.faults().injectLag(HELD, RELEASED);
      run(topology, redis, demo, System.out);
      if (!options.contains("--exit")) {
        System.out.println();
        System.out.println("Open " + demo.firstUrl().replace("127.0.0.1", "localhost") + "/");
        System.out.println("Servers stay up; Ctrl-C stops them.");
        new CountDownLatch(1).await();
      }
    }
  }

  /** Time the replica's applier is held, then released, over and over. */
  static final Duration HELD = Duration.ofMillis(150);

  static final Duration RELEASED = Duration.ofMillis(50);

  static void run(MySqlTopology topology, RedisServer redis, Demo demo, PrintStream out) {
    out.println(
        "MySQL source + replica up in "
            + topology.startTime().toMillis()
            + " ms ("
            + topology.source().version()
            + "); Redis "
            + redis.version());
    out.println(
        "Replication lag injected: the replica's applier is held "
            + HELD.toMillis()
            + " ms, then released "
            + RELEASED.toMillis()
            + " ms, over and over.");
    out.println(
        "Two instances of the orders service: "
            + demo.firstUrl()
            + " (writes) and "
            + demo.secondUrl()
            + " (reads).");
    out.println();
    out.println(
        CLIENTS
            + " clients each create an order on the first instance and read it at once on the"
            + " second:");
    out.println();
    out.println(Scenario.Result.header());
    out.println(demo.run(CLIENTS, false).row());
    out.println(demo.run(CLIENTS, true).row());
  }
}

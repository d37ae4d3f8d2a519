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
 * the clients saw; then serves the page, with a background load running, until Ctrl-C ({@code
 * --exit} stops at once).
 */
public final class DemoMain {

  static final int CLIENTS = 40;

  /** Clients of the background load the page shows from the start. */
  static final int LOAD_CLIENTS = 4;

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
        demo.startLoad(LOAD_CLIENTS);
        System.out.println();
        System.out.println(
            "Open "
                + demo.firstUrl().replace("127.0.0.1", "localhost")
                + "/ to watch "
                + LOAD_CLIENTS
                + " clients live (its Stop load button stops them) and apply faults.");
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

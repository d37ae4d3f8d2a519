package io.tidemark.demo;

import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a real MySQL source and replica (with a little replication lag injected) and Redis, two
 * instances of the orders service, and runs the scenario with Tidemark off, then on, printing what
 * the clients saw; then serves the page, with a background load running, until Ctrl-C ({@code
 * --exit} stops at once). With {@code --postgres}, a PostgreSQL primary and hot standby instead,
 * the lag made by pausing the standby's replay; with {@code --mariadb}, a MariaDB source and
 * replica, the lag made by pausing and resuming the replica's applier; the page then offers no
 * faults.
 */
public final class DemoMain {

  static final int CLIENTS = 40;

  /** Clients of the background load the page shows from the start. */
  static final int LOAD_CLIENTS = 4;

  private static final List<String> OPTIONS = List.of("--exit", "--postgres", "--mariadb");

  private static final String USAGE = "usage: bin/demo [--postgres | --mariadb] [--exit]";

  private DemoMain() {}

  public static void main(String[] args) throws InterruptedException {
    List<String> options = List.of(args);
    if (!OPTIONS.containsAll(options)) {
      throw new IllegalArgumentException("unknown option in " + options + "; " + USAGE);
    }
    if (options.contains("--postgres") && options.contains("--mariadb")) {
      throw new IllegalArgumentException("one database at a time: " + options + "; " + USAGE);
    }
    int port = options.contains("--exit") ? 0 : 8080;
    try (ReplicatedTopology<?> topology = topology(options);
        RedisServer redis = RedisServer.start();
        Demo demo = Demo.start(topology, redis, port)) {
      demo.injectLag(HELD, RELEASED);
      run(servers(topology, redis), demo, System.out);
      serve(demo, options, topology instanceof MySqlTopology ? " and apply faults." : ".");
    }
  }

  /** The servers the options ask for: MySQL unless told otherwise. */
  private static ReplicatedTopology<?> topology(List<String> options) {
    if (options.contains("--postgres")) {
      return PostgresTopology.builder().standbys(1).start();
    }
    if (options.contains("--mariadb")) {
      return MariaDbTopology.builder().start();
    }
    return MySqlTopology.builder().start();
  }

  private static void serve(Demo demo, List<String> options, String andFaults)
      throws InterruptedException {
    if (options.contains("--exit")) {
      return;
    }
    demo.startLoad(LOAD_CLIENTS);
    System.out.println();
    System.out.println(
        "Open "
            + demo.firstUrl().replace("127.0.0.1", "localhost")
            + "/ to watch "
            + LOAD_CLIENTS
            + " clients live (its Stop load button stops them)"
            + andFaults);
    System.out.println("Servers stay up; Ctrl-C stops them.");
    new CountDownLatch(1).await();
  }

  /** Time the replica's applier is held, then released, over and over. */
  static final Duration HELD = Duration.ofMillis(150);

  static final Duration RELEASED = Duration.ofMillis(50);

  /** What the demo runs on, as its first lines say. */
  static String servers(ReplicatedTopology<?> topology, RedisServer redis) {
    if (topology instanceof PostgresTopology postgres) {
      return servers(
          "PostgreSQL primary + hot standby",
          topology,
          postgres.primary().queryString("SHOW server_version"),
          redis,
          "the standby's replay is paused",
          "resumed");
    }
    if (topology instanceof MariaDbTopology mariadb) {
      return servers(
          "MariaDB source + replica",
          topology,
          // VERSION() ends in -log while the binary log is on, as on every replicating server.
          mariadb.source().version().replaceFirst("-log$", ""),
          redis,
          "the replica's applier is paused",
          "resumed");
    }
    MySqlTopology mysql = (MySqlTopology) topology;
    return servers(
        "MySQL source + replica",
        topology,
        String.valueOf(mysql.source().version()),
        redis,
        "the replica's applier is held",
        "released");
  }

  private static String servers(
      String servers,
      ReplicatedTopology<?> topology,
      String version,
      RedisServer redis,
      String held,
      String released) {
    return servers
        + " up in "
        + topology.startTime().toMillis()
        + " ms ("
        + version
        + "); Redis "
        + redis.version()
        + ".\nReplication lag injected: "
        + held
        + " "
        + HELD.toMillis()
        + " ms, then "
        + released
        + " "
        + RELEASED.toMillis()
        + " ms, over and over.";
  }

  static void run(String servers, Demo demo, PrintStream out) {
    out.println(servers);
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

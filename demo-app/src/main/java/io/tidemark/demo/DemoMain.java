package io.tidemark.demo;

import io.tidemark.testkit.MySqlNode;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a real MySQL source and replica and Redis, shows a read on the replica right after a write
 * missing it, and the same read after waiting for the write's GTID set finding it; then keeps the
 * servers up until Ctrl-C ({@code --exit} stops at once).
 */
public final class DemoMain {

  private DemoMain() {}

  public static void main(String[] args) throws InterruptedException {
    try (MySqlTopology topology = MySqlTopology.builder().start();
        RedisServer redis = RedisServer.start()) {
      run(topology, redis, System.out);
      if (!List.of(args).contains("--exit")) {
        System.out.println("\nServers stay up; Ctrl-C stops them.");
        new CountDownLatch(1).await();
      }
    }
  }

  static void run(MySqlTopology topology, RedisServer redis, PrintStream out) {
    out.println(
        "Topology up in " + topology.startTime().toMillis() + " ms: " + topology.describe());
    out.println("Redis " + redis.version() + " at " + redis.uri());

    MySqlNode source = topology.source();
    MySqlNode replica = topology.replica();
    source.execute(
        "CREATE DATABASE IF NOT EXISTS demo",
        "CREATE TABLE IF NOT EXISTS demo.orders (id BIGINT PRIMARY KEY, status VARCHAR(20))");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));

    replica.pauseApplier();
    try {
      source.execute("INSERT INTO demo.orders VALUES (101, 'created')");
      String token = source.gtidExecuted();
      out.println("\nOrder 101 committed on the source; its GTID set: " + token);
      out.println("Replica read right after: " + find(replica));
      replica.resumeApplier();
      boolean reached = replica.awaitGtidSet(token, Duration.ofSeconds(5));
      out.println("WAIT_FOR_EXECUTED_GTID_SET returned " + (reached ? 0 : 1));
      out.println("Replica read after the wait: " + find(replica));
    } finally {
      replica.resumeApplier();
    }
  }

  private static String find(MySqlNode replica) {
    String status = replica.queryString("SELECT status FROM demo.orders WHERE id = 101");
    return status == null ? "not found (stale)" : "found, status " + status;
  }
}

package io.tidemark.testkit.redis;

import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster of three primaries without replicas, as local processes on free loopback
 * ports, started from the same {@code redis-server} as {@link RedisServer}: each node runs with
 * {@code cluster-enabled yes} and its {@code nodes.conf} in its own folder, gets a third of the 16
 * 384 slots, and meets the others; {@link #start()} returns once every node reports {@code
 * cluster_state:ok}.
 *
 * <p>A node can be killed and restarted like a single server; it rejoins with its slots from its
 * {@code nodes.conf}, without its data.
 */
public final class RedisCluster implements AutoCloseable {

  /** Number of hash slots of every Redis Cluster. */
  public static final int SLOTS = 16_384;

  private static final int NODES = 3;
  // Redis before 7 puts the cluster bus on the data port plus 10 000.
  private static final int BUS_OFFSET = 10_000;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final List<RedisServer> nodes;

  private RedisCluster(List<RedisServer> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /** Starts three nodes, assigns the slots and waits until the cluster is ok on every node. */
  public static RedisCluster start() {
    List<RedisServer> started = new ArrayList<>();
    RedisCluster cluster = new RedisCluster(started);
    try {
      for (int i = 0; i < NODES; i++) {
        started.add(
            RedisServer.start(
                portWithFreeBus(),
                List.of(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "2000")));
      }
      cluster = new RedisCluster(started);
      for (int i = 0; i < NODES; i++) {
        int from = i * SLOTS / NODES;
        int to = (i + 1) * SLOTS / NODES;
        List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = from; slot < to; slot++) {
          command.add(Integer.toString(slot));
        }
        started.get(i).command(command.toArray(String[]::new));
      }
      for (int i = 1; i < NODES; i++) {
        started
            .get(0)
            .command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(started.get(i).port()));
      }
      cluster.awaitOk();
      return cluster;
    } catch (RuntimeException e) {
      for (RedisServer node : started) {
        node.close();
      }
      throw e;
    }
  }

  /** Waits until every running node reports {@code cluster_state:ok}. */
  public void awaitOk() {
    boolean ok =
        RedisServer.awaitEveryRunning(
            nodes,
            node -> {
              String info = node.command("CLUSTER", "INFO");
              return info != null && info.contains("cluster_state:ok");
            },
            READY_TIMEOUT);
    if (!ok) {
      throw new TestkitException("redis cluster " + this + " not ok within " + READY_TIMEOUT);
    }
  }

  /** The nodes, each a primary; kill, restart, freeze and thaw work on each. */
  public List<RedisServer> nodes() {
    return nodes;
  }

  /** {@code redis://127.0.0.1:port} of every node, as Lettuce's cluster client takes them. */
  public List<String> uris() {
    return nodes.stream().map(RedisServer::uri).toList();
  }

  /** The server's version, from the first node. */
  public String version() {
    return nodes.get(0).version();
  }

  private static int portWithFreeBus() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = FreePorts.next();
      if (port + BUS_OFFSET <= 65_535 && isFree(port + BUS_OFFSET)) {
        return port;
      }
    }
    throw new TestkitException("no free loopback port with a free cluster bus port");
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills every node and deletes its folder. */
  @Override
  public void close() {
    for (RedisServer node : nodes) {
      node.close();
    }
  }

  @Override
  public String toString() {
    return nodes.stream()
        .map(node -> Integer.toString(node.port()))
        .collect(Collectors.joining(",", "RedisCluster(127.0.0.1:", ")"));
  }
}

package io.tidemark.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * What every database's topology shares: one writable node and nodes that replicate from it, in a
 * folder of their own, closed (servers killed, data deleted) by {@link #close()} or at JVM exit.
 *
 * @param <N> the nodes of this database
 */
public abstract class ReplicatedTopology<N extends DatabaseNode<?>> implements AutoCloseable {

  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final Path home;
  private final List<N> nodes;
  private volatile N writable;
  private volatile Duration startTime = Duration.ZERO;

  /** The topology of {@code nodes}, the first writable, closed at JVM exit unless closed before. */
  protected ReplicatedTopology(Path home, List<N> nodes) {
    this.home = home;
    this.nodes = List.copyOf(nodes);
    this.writable = nodes.get(0);
    ProcessReaper.closeAtShutdown(this);
  }

  /**
   * {@code count}, the followers a builder was asked for, once it is checked to be 1 to 8.
   *
   * @param name what the builder calls them, for the error
   * @throws IllegalArgumentException when it is not
   */
  protected static int followerCount(String name, int count) {
    if (count < 1 || count > 8) {
      throw new IllegalArgumentException(name + " must be 1..8, was " + count);
    }
    return count;
  }

  /**
   * One node per name: {@code writable}, then {@code follower1} to {@code follower<followers>},
   * each made by {@code make} from its index in that order and its name.
   */
  protected static <T> List<T> perNode(
      String writable, String follower, int followers, BiFunction<Integer, String, T> make) {
    List<T> made = new ArrayList<>();
    for (int i = 0; i <= followers; i++) {
      made.add(make.apply(i, i == 0 ? writable : follower + i));
    }
    return made;
  }

  /**
   * {@code topology} once {@code bringUp} brought it up, its start timed from {@code started} (as
   * {@link System#nanoTime()} told); when bringing it up fails, the topology is closed and the
   * failure rethrown.
   */
  protected static <T extends ReplicatedTopology<?>> T started(
      T topology, long started, Runnable bringUp) {
    try {
      bringUp.run();
    } catch (RuntimeException e) {
      topology.close();
      throw e;
    }
    topology.startedIn(Duration.ofNanos(System.nanoTime() - started));
    return topology;
  }

  /** Every node, whatever its role, in name order. */
  public final List<N> nodes() {
    return nodes;
  }

  /** How long starting the topology took. */
  public final Duration startTime() {
    return startTime;
  }

  protected final void startedIn(Duration time) {
    startTime = time;
  }

  /** The node that takes writes now. */
  protected final N writable() {
    return writable;
  }

  protected final void writable(N node) {
    writable = node;
  }

  /**
   * Creates a database with a unique name on the writable node and waits until every replicating
   * node has it, so tests sharing one topology stay apart.
   */
  public final String createDatabase(String prefix) {
    String name = prefix + "_" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
    writable.execute(createDatabaseStatement(name));
    awaitCaughtUp(Duration.ofSeconds(30));
    return name;
  }

  /** The statement that creates database {@code name}. */
  protected abstract String createDatabaseStatement(String name);

  /** Whether {@code node} replicates from the writable node now. */
  protected abstract boolean follows(N node);

  /** The nodes replicating from the writable node now, in name order. */
  protected final List<N> followers() {
    return nodes.stream().filter(this::follows).toList();
  }

  /**
   * Checks that {@code node} is one of this topology's and replicates now, as a failover to it
   * needs.
   *
   * @param what what such a node is called, such as {@code replica}
   * @throws IllegalArgumentException when it is not
   */
  protected final void requireFollower(N node, String what) {
    if (!nodes.contains(node) || !follows(node)) {
      throw new IllegalArgumentException(node + " is not a " + what + " of this topology");
    }
  }

  /**
   * Waits until every replicating node has reached the writable node's position now.
   *
   * @throws TestkitException when one has not within {@code timeout}
   */
  protected final void awaitCaughtUp(Duration timeout) {
    String position = writable.position();
    for (N follower : followers()) {
      if (!follower.awaitPosition(position, timeout)) {
        throw new TestkitException(
            follower.name()
                + " did not reach "
                + position
                + " within "
                + timeout
                + "; "
                + follower.behind());
      }
    }
  }

  /** Stops {@code node}'s server for good; its data folder is deleted after. */
  protected abstract void discard(N node);

  /** Stops every server (SIGKILL: the data is thrown away) and deletes the data folders. */
  @Override
  public final synchronized void close() {
    if (!ProcessReaper.forget(this)) {
      return;
    }
    for (N node : nodes) {
      node.closeLinks();
      discard(node);
    }
    FileTrees.deleteRecursively(home);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + nodes;
  }
}

package io.tidemark.testkit.mysql;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.mysql.MySqlNode.Role;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * A real MySQL replication topology, of local processes or of containers ({@link Backend}): one
 * source and one or more replicas, GTID mode on, {@code enforce_gtid_consistency}, binary logs,
 * super-read-only replicas with auto-positioned replication, on free loopback ports, with data in a
 * temporary folder.
 *
 * <pre>{@code
 * try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
 *   topology.source().execute("CREATE DATABASE shop");
 *   topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>Closing stops every server and deletes the data; so does JVM exit, even a killed JVM.
 */
public final class MySqlTopology extends ReplicatedTopology<MySqlNode> {

  private final @Nullable MySqlBinaries binaries;
  private final String backend;

  private MySqlTopology(
      @Nullable MySqlBinaries binaries, String backend, Path home, List<MySqlNode> nodes) {
    super(home, nodes);
    this.binaries = binaries;
    this.backend = backend;
  }

  /** Starts building a topology; the default is one replica and {@link MySqlBinaries#resolve()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds and starts a {@link MySqlTopology}. */
  public static final class Builder {
    private int replicas = 1;
    private @Nullable MySqlBinaries binaries;
    private @Nullable Backend backend;

    private Builder() {}

    /** Number of replicas, 1 to 8. */
    public Builder replicas(int count) {
      this.replicas = followerCount("replicas", count);
      return this;
    }

    /** Server binaries to run as local processes instead of the resolved default. */
    public Builder binaries(MySqlBinaries binaries) {
      this.binaries = binaries;
      return this;
    }

    /** Where the servers run, instead of {@link Backend#configured()}. */
    public Builder backend(Backend backend) {
      this.backend = backend;
      return this;
    }

    /** Starts every server, wires replication and waits until the replicas are connected. */
    public MySqlTopology start() {
      if (backend == Backend.CONTAINERS && binaries != null) {
        throw new IllegalStateException(
            "binaries(...) are for the process backend; containers run " + Backend.mysqlImage());
      }
      // Binaries given are run as processes, whatever the setting.
      Backend chosen =
          backend != null ? backend : binaries != null ? Backend.PROCESSES : Backend.configured();
      return chosen == Backend.CONTAINERS ? ContainerTopology.start(replicas) : startProcesses();
    }

    private MySqlTopology startProcesses() {
      long started = System.nanoTime();
      MySqlBinaries bin = binaries != null ? binaries : MySqlBinaries.resolve();
      Path home = ProcessReaper.newFolder("mysql");
      List<MySqlNode> nodes =
          perNode(
              replicas,
              (i, name) -> {
                Path nodeHome = home.resolve(name);
                DataDirectoryTemplate.copyTo(bin, nodeHome.resolve("data"));
                MySqlServerProcess process =
                    new MySqlServerProcess(bin, nodeHome, FreePorts.next(), i + 1);
                return new MySqlNode(name, process, bin.version(), roleAt(i));
              });
      MySqlTopology topology = new MySqlTopology(bin, "local processes, " + bin, home, nodes);
      return started(
          topology,
          started,
          () -> {
            for (MySqlNode node : nodes) {
              node.process().launch(node.role() == Role.REPLICA);
            }
            for (MySqlNode node : nodes) {
              node.process().awaitReady(node.jdbcUrl());
              node.checkReportedVersion();
            }
            topology.wireReplication();
          });
    }
  }

  /**
   * A topology of servers that are up, with replication wired; closed when wiring fails, else at
   * JVM exit unless closed before.
   *
   * @param started when starting began, as {@link System#nanoTime()} told
   */
  static MySqlTopology wired(String backend, Path home, List<MySqlNode> nodes, long started) {
    MySqlTopology topology = new MySqlTopology(null, backend, home, nodes);
    return started(topology, started, topology::wireReplication);
  }

  /**
   * One node per name, {@code source} and then {@code replica1} to {@code replica<replicas>}, made
   * by {@code make} from its index and name.
   */
  static <T> List<T> perNode(int replicas, BiFunction<Integer, String, T> make) {
    return perNode("source", "replica", replicas, make);
  }

  /** The role the node at {@code index} of {@link #perNode(int, BiFunction)} starts as. */
  static Role roleAt(int index) {
    return index == 0 ? Role.SOURCE : Role.REPLICA;
  }

  /** Points every replica at the source and waits until they replicate. */
  private void wireReplication() {
    for (MySqlNode replica : replicas()) {
      replica.replicateFrom(source());
    }
    for (MySqlNode replica : replicas()) {
      awaitReplicating(replica, Duration.ofSeconds(30));
    }
  }

  /** The node that is the writable source now. */
  public MySqlNode source() {
    return writable();
  }

  /** The nodes replicating from the source now, in name order. */
  public List<MySqlNode> replicas() {
    return followers();
  }

  /** The first replica. */
  public MySqlNode replica() {
    return replicas().get(0);
  }

  /**
   * The binaries the servers run.
   *
   * @throws IllegalStateException on the container backend, which runs an image instead
   */
  public MySqlBinaries binaries() {
    if (binaries == null) {
      throw new IllegalStateException("the servers run in containers: " + backend);
    }
    return binaries;
  }

  /** Where the servers run and what: the backend, and the binaries or the image. */
  public String backend() {
    return backend;
  }

  @Override
  protected String createDatabaseStatement(String name) {
    return "CREATE DATABASE `" + name + "`";
  }

  @Override
  protected boolean follows(MySqlNode node) {
    return node.role() == Role.REPLICA;
  }

  /**
   * Waits until every replica has executed the source's current {@code gtid_executed}.
   *
   * @throws TestkitException when one has not within {@code timeout}
   */
  public void awaitReplicasCaughtUp(Duration timeout) {
    awaitCaughtUp(timeout);
  }

  /**
   * Fails over to {@code replica}: it stops replicating and becomes the writable source, the other
   * replicas follow it by auto-position, and the former source is killed or left running
   * super-read-only. Nothing waits for the new source to catch up first, so transactions it had not
   * received are lost, as in a real asynchronous failover.
   */
  public void promote(MySqlNode replica, FormerSource fate) {
    requireFollower(replica, "replica");
    MySqlNode former = source();
    if (fate == FormerSource.KILLED) {
      former.kill();
    }
    replica.becomeSource();
    former.becomeFormerSource(fate == FormerSource.READ_ONLY);
    writable(replica);
    for (MySqlNode other : replicas()) {
      other.repointTo(replica);
    }
  }

  /** What happens to the old source in {@link #promote}. */
  public enum FormerSource {
    /** Killed (SIGKILL) before the promotion, as in a crash. */
    KILLED,
    /** Left running, made super-read-only, replicating from no one. */
    READ_ONLY
  }

  private void awaitReplicating(MySqlNode replica, Duration timeout) {
    if (!Poll.until(() -> replica.replicationStatus().running(), timeout)) {
      throw new TestkitException(
          replica.name() + " is not replicating: " + replica.replicationStatus());
    }
  }

  /** One line per node: name, role, port, server_uuid and gtid_executed. */
  public String describe() {
    StringBuilder out =
        new StringBuilder("MySQL ").append(source().version()).append(", ").append(backend);
    for (MySqlNode node : nodes()) {
      out.append("\n  ").append(node);
      if (node.isRunning()) {
        out.append(" uuid=")
            .append(node.serverUuid())
            .append(" gtid_executed=")
            .append(node.gtidExecuted());
      } else {
        out.append(" stopped");
      }
    }
    return out.toString();
  }

  @Override
  protected void discard(MySqlNode node) {
    node.process().remove();
  }
}

package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.mariadb.MariaDbNode.Role;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real MariaDB replication topology of local processes: one source and one or more read-only
 * replicas replicating by GTID ({@code MASTER_USE_GTID = slave_pos}, {@code gtid_strict_mode} on
 * every server), on free loopback ports, with data in a temporary folder.
 *
 * <pre>{@code
 * try (MariaDbTopology topology = MariaDbTopology.builder().replicas(2).start()) {
 *   topology.source().execute("CREATE DATABASE shop");
 *   topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>Closing stops every server and deletes the data; so does JVM exit, even a killed JVM.
 */
public final class MariaDbTopology extends ReplicatedTopology<MariaDbNode> {

  private final MariaDbBinaries binaries;

  private MariaDbTopology(MariaDbBinaries binaries, Path home, List<MariaDbNode> nodes) {
    super(home, nodes);
    this.binaries = binaries;
  }

  /**
   * Starts building a topology; the default is one replica and {@link MariaDbBinaries#resolve()}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds and starts a {@link MariaDbTopology}. */
  public static final class Builder {
    private int replicas = 1;

    private Builder() {}

    /** Number of replicas, 1 to 8. */
    public Builder replicas(int count) {
      this.replicas = followerCount("replicas", count);
      return this;
    }

    /** Starts every server, wires replication and waits until the replicas replicate. */
    public MariaDbTopology start() {
      long started = System.nanoTime();
      MariaDbBinaries binaries = MariaDbBinaries.resolve();
      Path home = ProcessReaper.newFolder("mariadb");
      List<MariaDbNode> nodes =
          perNode(
              "source",
              "replica",
              replicas,
              (i, name) ->
                  new MariaDbNode(
                      name,
                      new MariaDbServerProcess(
                          binaries, home.resolve(name), FreePorts.next(), i + 1),
                      i == 0 ? Role.SOURCE : Role.REPLICA));
      MariaDbTopology topology = new MariaDbTopology(binaries, home, nodes);
      return started(topology, started, topology::bringUp);
    }
  }

  /** Starts every server, wires replication and waits until the replicas have caught up. */
  private void bringUp() {
    for (MariaDbNode node : nodes()) {
      node.process().initialize();
      node.process().launch(node.role() == Role.REPLICA);
    }
    for (MariaDbNode node : nodes()) {
      node.process().awaitReady(node.jdbcUrl());
    }
    MariaDbNode source = source();
    source.execute(
        "CREATE USER '"
            + MariaDbServerProcess.REPLICATION_USER
            + "'@'%' IDENTIFIED BY '"
            + MariaDbServerProcess.REPLICATION_PASSWORD
            + "'",
        "GRANT REPLICATION SLAVE ON *.* TO '" + MariaDbServerProcess.REPLICATION_USER + "'@'%'");
    for (MariaDbNode replica : replicas()) {
      replica.replicateFrom(source, Duration.ofSeconds(30));
    }
    awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  /** The writable source. */
  public MariaDbNode source() {
    return writable();
  }

  /** The replicas, in name order. */
  public List<MariaDbNode> replicas() {
    return followers();
  }

  /** The first replica. */
  public MariaDbNode replica() {
    return replicas().get(0);
  }

  public MariaDbBinaries binaries() {
    return binaries;
  }

  /**
   * Waits until every replica has applied the source's binary log position ({@code
   * gtid_binlog_pos}).
   *
   * @throws TestkitException when one has not within {@code timeout}
   */
  public void awaitReplicasCaughtUp(Duration timeout) {
    awaitCaughtUp(timeout);
  }

  /**
   * Fails over to {@code replica}: the source is killed, {@code replica} stops replicating and
   * becomes the writable source, and the other replicas follow it from their own positions ({@code
   * MASTER_USE_GTID = slave_pos}). Nothing waits for the new source to catch up first, so
   * transactions it had not received are lost, as in a real asynchronous failover; a replica that
   * applied one of them cannot follow it (stop its receiver before the lost writes to avoid that).
   */
  public void promote(MariaDbNode replica) {
    requireFollower(replica, "replica");
    MariaDbNode former = source();
    former.kill();
    replica.becomeSource();
    former.becomeFormerSource();
    writable(replica);
    for (MariaDbNode other : replicas()) {
      other.repointTo(replica);
    }
  }

  @Override
  protected String createDatabaseStatement(String name) {
    return "CREATE DATABASE `" + name + "`";
  }

  @Override
  protected boolean follows(MariaDbNode node) {
    return node.role() == Role.REPLICA;
  }

  @Override
  protected void discard(MariaDbNode node) {
    node.process().kill();
  }
}

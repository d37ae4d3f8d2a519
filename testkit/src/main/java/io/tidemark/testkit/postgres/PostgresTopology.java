package io.tidemark.testkit.postgres;

import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.TestkitException;
import io.tidemark.testkit.postgres.PostgresNode.Role;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real PostgreSQL streaming-replication topology of local processes: one primary and one or more
 * hot standbys, each a {@code pg_basebackup} of the primary with a replication slot of its own, on
 * free loopback ports, with data in a temporary folder.
 *
 * <pre>{@code
 * try (PostgresTopology topology = PostgresTopology.builder().standbys(2).start()) {
 *   topology.primary().execute("CREATE TABLE t (id int)");
 *   topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>Closing stops every server and deletes the data; so does JVM exit, even a killed JVM.
 */
public final class PostgresTopology extends ReplicatedTopology<PostgresNode> {

  private final PostgresBinaries binaries;

  private PostgresTopology(PostgresBinaries binaries, Path home, List<PostgresNode> nodes) {
    super(home, nodes);
    this.binaries = binaries;
  }

  /**
   * Starts building a topology; the default is one standby and {@link PostgresBinaries#resolve()}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds and starts a {@link PostgresTopology}. */
  public static final class Builder {
    private int standbys = 1;
    private int synchronous;

    private Builder() {}

    /** Number of hot standbys, 1 to 8. */
    public Builder standbys(int count) {
      this.standbys = followerCount("standbys", count);
      return this;
    }

    /**
     * Makes a commit on the primary wait until {@code count} of the standbys, any of them, have
     * flushed it ({@code synchronous_standby_names = 'ANY count (*)'}, set on every node, so that a
     * promoted standby keeps it); 0, the default, is asynchronous replication. A faulted standby
     * then holds no commit while another still acknowledges it.
     */
    public Builder synchronousStandbys(int count) {
      if (count < 0 || count > standbys) {
        throw new IllegalArgumentException(
            "synchronous standbys must be 0.." + standbys + " (the standbys), was " + count);
      }
      this.synchronous = count;
      return this;
    }

    /** Starts the primary, clones and starts the standbys, and waits until they stream. */
    public PostgresTopology start() {
      long started = System.nanoTime();
      PostgresBinaries binaries = PostgresBinaries.resolve();
      Path home = ProcessReaper.newFolder("postgres");
      List<PostgresNode> nodes =
          perNode(
              "primary",
              "standby",
              standbys,
              (i, name) ->
                  new PostgresNode(
                      name,
                      new PostgresServerProcess(binaries, home.resolve(name), FreePorts.next()),
                      i == 0 ? Role.PRIMARY : Role.STANDBY));
      PostgresTopology topology = new PostgresTopology(binaries, home, nodes);
      return started(topology, started, () -> topology.bringUp(synchronous));
    }
  }

  /**
   * Starts the primary, clones and starts the standbys, waits until they stream, and makes {@code
   * synchronous} of them synchronous.
   */
  private void bringUp(int synchronous) {
    PostgresNode primary = primary();
    primary.process().initialize();
    primary.process().launch();
    primary.process().awaitReady(primary.jdbcUrl());
    for (PostgresNode standby : standbys()) {
      standby.process().cloneFrom(primary.process(), standby.name());
      standby.process().launch();
    }
    for (PostgresNode standby : standbys()) {
      standby.process().awaitReady(standby.jdbcUrl());
    }
    awaitStreaming(Duration.ofSeconds(30));
    if (synchronous > 0) {
      replicateSynchronously(synchronous, Duration.ofSeconds(30));
    }
  }

  private void awaitStreaming(Duration timeout) {
    awaitEveryStandby("state = 'streaming'", "streams from " + primary(), timeout);
  }

  private void replicateSynchronously(int count, Duration timeout) {
    for (PostgresNode node : nodes()) {
      node.execute(
          "ALTER SYSTEM SET synchronous_standby_names = 'ANY " + count + " (*)'",
          "SELECT pg_reload_conf()");
    }
    // The primary's backends wait for standbys only once its checkpointer took the setting, which
    // pg_stat_replication shows as each standby's quorum state.
    awaitEveryStandby("sync_state = 'quorum'", "is synchronous for " + primary(), timeout);
  }

  /** Waits until the primary's {@code pg_stat_replication} shows every standby {@code where}. */
  private void awaitEveryStandby(String where, String what, Duration timeout) {
    int expected = standbys().size();
    boolean all =
        Poll.until(
            () ->
                Integer.parseInt(
                        String.valueOf(
                            primary()
                                .queryString(
                                    "SELECT count(*) FROM pg_stat_replication WHERE " + where)))
                    == expected,
            timeout);
    if (!all) {
      throw new TestkitException("not every standby " + what + " within " + timeout);
    }
  }

  /** The node that is the writable primary now. */
  public PostgresNode primary() {
    return writable();
  }

  /** The nodes streaming from the primary now, in name order. */
  public List<PostgresNode> standbys() {
    return followers();
  }

  /** The first standby. */
  public PostgresNode standby() {
    return standbys().get(0);
  }

  public PostgresBinaries binaries() {
    return binaries;
  }

  @Override
  protected String createDatabaseStatement(String name) {
    return "CREATE DATABASE \"" + name + "\"";
  }

  @Override
  protected boolean follows(PostgresNode node) {
    return node.role() == Role.STANDBY;
  }

  /**
   * Waits until every standby has replayed the primary's current WAL position.
   *
   * @throws TestkitException when one has not within {@code timeout}
   */
  public void awaitStandbysCaughtUp(Duration timeout) {
    awaitCaughtUp(timeout);
  }

  /**
   * Fails over to {@code standby}: the primary is killed (SIGKILL, as in a crash), the standby
   * promoted ({@code pg_promote}) onto a new timeline, and the other standbys follow it. Nothing
   * waits for the standby to catch up first, so WAL it had not received is lost, as in a real
   * asynchronous failover.
   */
  public void promote(PostgresNode standby) {
    requireFollower(standby, "standby");
    PostgresNode former = primary();
    former.kill();
    former.becomeFormerPrimary();
    standby.becomePrimary();
    writable(standby);
    for (PostgresNode other : standbys()) {
      other.followFrom(standby);
    }
  }

  @Override
  protected void discard(PostgresNode node) {
    node.process().kill();
  }
}

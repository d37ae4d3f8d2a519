package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Many reads waiting for one GTID (issue part 6): before each invocation, outside the measured
 * time, {@code waiters} threads start reading a row the next write will insert, requiring that
 * write's GTID, and the replica is checked to be waiting; the measured method commits the write on
 * the source and returns when every reader has its row. Parameter {@code mode}:
 *
 * <ul>
 *   <li>{@code coalesced}: one {@link ConsistentReader} over a replica pool of 16, with as many
 *       permits as connections (as the starter sizes them); the first read waits on the server, the
 *       others wait in memory for its outcome and then, in waves of the free permits, take a pooled
 *       connection for their query. The budget is 3 s.
 *   <li>{@code uncoalesced}: what a reader without coalescing does: every read has its own
 *       connection and its own {@code WAIT_FOR_EXECUTED_GTID_SET}, then queries on it.
 * </ul>
 *
 * <p>The score is commit plus release of the last reader. {@link Samples} also records, per
 * invocation, the time from the commit's acknowledgement to each reader's return ({@code release})
 * and to the last one ({@code lastRelease}).
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar ManyWaitersBenchmark -f 1 -wi 1
 * -i 3 -p waiters=100}.
 */
public class ManyWaitersBenchmark extends WaitingReaders {

  private static final long ARM_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

  @Param({"1", "10", "100", "500"})
  public int waiters;

  @Override
  int waiters() {
    return waiters;
  }

  private Cluster cluster;
  private Connection monitor;
  private String sourceUuid;
  private long lastGno;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = started(Cluster.start("waiters"));
    writer = cluster.connect(cluster.source);
    monitor = cluster.connect(cluster.replica);
    if (coalesced()) {
      HikariDataSource replicaPool = cluster.replicaPool(16);
      HikariDataSource sourcePool = cluster.plainSourcePool(2);
      reader = ConsistentReader.builder(replicaPool, sourcePool).maxReplicaReads(16).build();
      options = ReadOptions.defaults().withTimeout(Duration.ofSeconds(3));
      // Loads what the reader learns once: the cluster's source UUIDs, how the replica waits.
      reader.read(
          options.requiring(GtidSet.parse(cluster.source.gtidExecuted())),
          c -> Cluster.readRow(c, 0));
    } else {
      for (int i = 0; i < waiters; i++) {
        own.add(cluster.connect(cluster.replica));
      }
    }
    threads = Executors.newFixedThreadPool(waiters);
    sourceUuid = cluster.source.serverUuid();
    lastGno = cluster.lastSourceGno();
  }

  /** Starts the readers of the next write and waits until the replica waits for it. */
  @Setup(Level.Invocation)
  public void arm() throws SQLException, InterruptedException {
    id = ++lastId;
    required = GtidSet.parse(sourceUuid + ":" + (lastGno + 1));
    startReads(null);
    int expected = coalesced() ? 1 : waiters;
    long deadline = System.nanoTime() + ARM_TIMEOUT_NANOS;
    while (VisibilityObserver.waitingSessions(monitor) < expected) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("fewer than " + expected + " waits started");
      }
      LockSupport.parkNanos(100_000);
    }
    if (coalesced()) {
      // Followers wait in memory, where the server cannot show them; give them time to join.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }

  @TearDown(Level.Invocation)
  public void record() {
    lastGno++;
    if (recording) {
      samples.releases(released(), ackAt);
    }
  }

  @Override
  long readThroughTidemark() throws SQLException {
    ReadResult<@Nullable Integer> result = readRow();
    long at = System.nanoTime();
    if (result.value() == null || result.record().role() != NodeRole.REPLICA) {
      throw new IllegalStateException("not read on the replica after the wait: " + result);
    }
    return at;
  }

  @Override
  long waitAndRead(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 10)")) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getInt(1) != 0) {
          throw new IllegalStateException("the replica did not execute " + required + " in 10 s");
        }
      }
    }
    Integer value = Cluster.readRow(c, id);
    long at = System.nanoTime();
    if (value == null) {
      throw new IllegalStateException("row " + id + " missing after its wait");
    }
    return at;
  }
}

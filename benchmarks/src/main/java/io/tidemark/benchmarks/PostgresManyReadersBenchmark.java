package io.tidemark.benchmarks;

import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.WalPosition;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Many reads waiting for one write on a PostgreSQL hot standby, as {@link ManyWaitersBenchmark} is
 * on MySQL: before each invocation, outside the measured time, {@code waiters} threads start
 * reading the row the next write inserts, requiring the position just past the primary's current
 * one, all let go at once, and are given 20 ms to start waiting (a standby shows no waiting session
 * to look for: the waits are polls); the measured method commits the write and returns when every
 * reader has its row. Parameter {@code mode}:
 *
 * <ul>
 *   <li>{@code coalesced}: one {@link ConsistentReader} over a standby pool of 16, with as many
 *       permits as connections; one read waits on the standby, the others in memory for its
 *       outcome. The budget is 3 s.
 *   <li>{@code uncoalesced}: every read has its own connection and runs the dialect's wait on it,
 *       then its query, with 10 s to wait.
 * </ul>
 *
 * <p>Other WAL written on the primary between the look at its position and the write can carry
 * replay past the readers' position before the row exists. A reader with a connection of its own
 * then waits again, for the position just past its standby's; through Tidemark, whose reads do not
 * tell the standby's position, such an invocation is counted as {@code early} and its samples left
 * out. {@link Samples} records, per invocation, the time from the commit's acknowledgement to each
 * reader's return ({@code release}) and to the last one ({@code lastRelease}). {@code bin/bench
 * --server postgres} runs it with 1 and 500 readers.
 */
public class PostgresManyReadersBenchmark extends WaitingReaders {

  private static final long OWN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final long EARLY = -1;

  @Param({"1", "100", "500"})
  public int waiters;

  @Override
  int waiters() {
    return waiters;
  }

  private PostgresCluster cluster;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = started(PostgresCluster.start("readers"));
    writer = cluster.connect(cluster.source);
    if (coalesced()) {
      reader =
          ConsistentReader.builder(
                  cluster.replicaPool(16), CapturingDataSource.wrap(cluster.sourcePool(2)))
              .maxReplicaReads(16)
              .build();
      options = ReadOptions.defaults().withTimeout(Duration.ofSeconds(3));
      // Loads what the reader learns once: the standby's identity and timeline.
      reader.read(
          options.requiring(Dialect.of(writer).executed(writer)), c -> Cluster.readRow(c, 0));
    } else {
      for (int i = 0; i < waiters; i++) {
        own.add(cluster.connect(cluster.replica));
      }
    }
    threads = Executors.newFixedThreadPool(waiters);
  }

  /** Starts the readers of the next write and gives them time to start waiting. */
  @Setup(Level.Invocation)
  public void arm() throws SQLException, InterruptedException {
    id = ++lastId;
    required = nextPosition();
    CountDownLatch go = new CountDownLatch(1);
    // All at once: readers that polled while the others were still being handed out slowed that
    // hand-out to seconds on two cores.
    startReads(go);
    go.countDown();
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
  }

  @TearDown(Level.Invocation)
  public void record() {
    List<Long> released = released();
    if (released.contains(EARLY)) {
      samples.count("early");
    } else if (recording) {
      samples.releases(released, ackAt);
    }
  }

  /** The position just past the primary's current one: what the next write's replay reaches. */
  private GtidSet nextPosition() throws SQLException {
    return past(Dialect.of(writer).executed(writer));
  }

  /** The position just past {@code now}, a server's one position. */
  private static GtidSet past(GtidSet now) {
    UUID origin = now.uuids().iterator().next();
    WalPosition at = WalPosition.in(now, origin);
    if (at == null) {
      throw new IllegalStateException("not a WAL position: " + now);
    }
    return new WalPosition(at.systemId(), at.timeline(), at.lsn() + 1).toGtidSet();
  }

  @Override
  long readThroughTidemark() throws SQLException {
    ReadResult<@Nullable Integer> result = readRow();
    long at = System.nanoTime();
    if (result.record().role() != NodeRole.REPLICA) {
      throw new IllegalStateException("not read on the standby after the wait: " + result);
    }
    return result.value() == null ? EARLY : at;
  }

  @Override
  long waitAndRead(Connection c) throws SQLException {
    Dialect dialect = Dialect.of(c);
    GtidSet awaited = required;
    while (true) {
      if (!dialect.await(c, awaited, OWN_WAIT_NANOS)) {
        throw new IllegalStateException("the standby did not replay " + awaited + " in 10 s");
      }
      if (Cluster.readRow(c, id) != null) {
        return System.nanoTime();
      }
      GtidSet replayed = dialect.executed(c);
      // Read again after the look: the write may have replayed in between, and no WAL may follow.
      if (Cluster.readRow(c, id) != null) {
        return System.nanoTime();
      }
      awaited = past(replayed);
    }
  }
}

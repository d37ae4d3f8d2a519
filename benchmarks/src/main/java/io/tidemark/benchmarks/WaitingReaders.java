package io.tidemark.benchmarks;

import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the benchmarks of many reads waiting for one write share ({@link ManyWaitersBenchmark} on
 * MySQL, {@link PostgresManyReadersBenchmark} on PostgreSQL): before each invocation the readers
 * start, each on a thread of its own, through one {@link ConsistentReader} ({@code coalesced}) or
 * each on a connection of its own ({@code uncoalesced}); the measured method commits the write and
 * returns when every reader has its row.
 */
public abstract class WaitingReaders extends SampledBenchmark {

  @Param({"coalesced", "uncoalesced"})
  public String mode;

  /** The connection the writes commit on. */
  Connection writer;

  /** With {@code coalesced}: the reader every read goes through, and its options. */
  ConsistentReader reader;

  ReadOptions options;

  /** With {@code uncoalesced}: each reader's connection. */
  final List<Connection> own = new ArrayList<>();

  /** A thread for each reader. */
  ExecutorService threads;

  private BenchCluster<?> cluster;

  long lastId;

  // The current invocation.
  long id;
  GtidSet required = GtidSet.EMPTY;
  private final List<Future<Long>> reads = new ArrayList<>();
  long ackAt;

  /** How many readers wait for each write. */
  abstract int waiters();

  /** {@code cluster}, started for the trial, to be closed when it ends. */
  final <C extends BenchCluster<?>> C started(C cluster) {
    this.cluster = cluster;
    return cluster;
  }

  /** Row {@code id} as {@link #reader} reads it, requiring {@link #required}. */
  final ReadResult<@Nullable Integer> readRow() throws SQLException {
    return reader.read(options.requiring(required), c -> Cluster.readRow(c, id));
  }

  /** Reads row {@code id} through {@link #reader}; returns when it had it. */
  abstract long readThroughTidemark() throws SQLException;

  /**
   * Waits on {@code c} for {@link #required}, then reads row {@code id}; returns when it had it.
   */
  abstract long waitAndRead(Connection c) throws SQLException;

  /**
   * Starts the invocation's readers, each, where {@code go} is given, waiting for it once started;
   * returns when every one has started.
   */
  final void startReads(@Nullable CountDownLatch go) throws InterruptedException {
    int waiters = waiters();
    CountDownLatch started = new CountDownLatch(waiters);
    reads.clear();
    for (int i = 0; i < waiters; i++) {
      int reader = i;
      reads.add(
          threads.submit(
              () -> {
                started.countDown();
                if (go != null) {
                  go.await();
                }
                return coalesced() ? readThroughTidemark() : waitAndRead(own.get(reader));
              }));
    }
    started.await();
  }

  @Benchmark
  public long release() throws SQLException {
    Cluster.insertRow(writer, id);
    ackAt = System.nanoTime();
    return Collections.max(Cluster.allDone(reads));
  }

  /** When each of the invocation's readers returned ({@link System#nanoTime}), in their order. */
  final List<Long> released() {
    return Cluster.allDone(reads);
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) {
    samples.publish(params.getBenchmark() + ":" + mode + ":" + waiters());
    threads.shutdownNow();
    cluster.close();
  }

  final boolean coalesced() {
    return "coalesced".equals(mode);
  }
}

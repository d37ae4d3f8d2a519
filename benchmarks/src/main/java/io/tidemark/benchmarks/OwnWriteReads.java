package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the read-after-write benchmarks ({@link ReadAfterWriteBenchmark} on MySQL, {@link
 * ReplicaReadAfterWrite} on the others) share: an observer times each invocation's write becoming
 * visible on the replica, the variants read it back, and {@link Samples} pairs each read with that
 * floor. A subclass starts the servers, arms the observer and commits the write.
 */
public abstract class OwnWriteReads extends SampledBenchmark {

  /** The source's pool, for the variants that read there. */
  HikariDataSource sourcePool;

  /** The row the invocation's write inserted, and the position its commit was captured at. */
  long id;

  GtidSet required = GtidSet.EMPTY;

  /** When the write's commit was acknowledged ({@link System#nanoTime}). */
  long ackAt;

  /** Whether the source served the read. */
  boolean bySource;

  /** When the variant answered ({@link System#nanoTime}). */
  long doneAt;

  private WriteObserver observer;
  private SourceAndReplica cluster;

  /** {@code observer}, started for the trial: it times the writes, and is closed when it ends. */
  final <O extends WriteObserver> O observing(O observer) {
    this.observer = observer;
    return observer;
  }

  /**
   * {@code cluster}, started for the trial: it serves the writes and reads, and is closed (its
   * servers stopped) when the trial ends, after the observer.
   */
  final <C extends SourceAndReplica> C closing(C cluster) {
    this.cluster = cluster;
    return cluster;
  }

  /** Records more of an invocation, after the pair of its read and floor; nothing unless said. */
  void recordMore() {}

  /** Pairs the read with the floor of the same write. */
  @TearDown(Level.Invocation)
  public void pair() {
    long visibleAt = observer.visibleAt();
    if (!recording) {
      return;
    }
    samples.read(ackAt, visibleAt, doneAt, bySource);
    recordMore();
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) {
    samples.publish(params.getBenchmark());
    observer.close();
    cluster.close();
  }

  @Benchmark
  public long floor() {
    doneAt = observer.visibleAt();
    return doneAt;
  }

  @Benchmark
  public int alwaysSource() throws SQLException {
    Integer value;
    try (Connection c = sourcePool.getConnection()) {
      value = Cluster.readRow(c, id);
    }
    bySource = true;
    return done(value);
  }

  /** The variant's answer, timed; a missing row fails the run. */
  final int done(@Nullable Integer value) {
    doneAt = System.nanoTime();
    if (value == null) {
      throw new IllegalStateException("read its own write " + id + " as missing");
    }
    return value;
  }
}

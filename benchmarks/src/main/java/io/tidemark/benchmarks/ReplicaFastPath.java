package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import java.sql.Connection;
import java.sql.SQLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What Tidemark adds on a replica when the reader already knows the replica has the token, so it
 * does not wait: the same primary-key read from the replica pool, once straight ({@code plain}) and
 * once through {@link ConsistentReader} ({@code fastPath}), in rotating order within one trial and
 * each timed into {@link Samples}, with their difference per invocation; as {@link
 * SatisfiedWaitBenchmark}'s {@code interleavedReads} does on MySQL. The same on each database whose
 * benchmark extends it.
 */
public abstract class ReplicaFastPath extends SampledBenchmark {

  private SourceAndReplica cluster;
  private HikariDataSource replicaPool;
  private ConsistentReader reader;
  private ReadOptions caughtUp;
  private int turn;

  /** The servers and the benchmark's table, started for this trial. */
  abstract SourceAndReplica start(String prefix) throws SQLException;

  /** Writes the row, then reads it once through the reader, which learns the replica has it. */
  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = start("fastpath");
    HikariDataSource sourcePool = cluster.sourcePool(1);
    GtidSet written;
    try (Connection c = sourcePool.getConnection()) {
      Cluster.insertRow(c, 2);
      written = Dialect.of(c).committed(c, false);
    }
    replicaPool = cluster.replicaPool(2);
    reader = ConsistentReader.builder(replicaPool, CapturingDataSource.wrap(sourcePool)).build();
    caughtUp = ReadOptions.defaults().requiring(written);
    FastPathReads.learnCaughtUp(reader, caughtUp, 2);
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) {
    samples.publish(params.getBenchmark());
    cluster.close();
  }

  /** One plain read and one fast-path read, in alternating order; the score is the time of both. */
  @Benchmark
  public int interleavedReads() throws SQLException {
    long[] nanos =
        FastPathReads.inTurn(
            turn,
            () -> FastPathReads.plain(replicaPool),
            () -> FastPathReads.fastPath(reader, caughtUp));
    turn = (turn + 1) % 2;
    if (recording) {
      samples.add("plain", nanos[0]);
      samples.add("fastPath", nanos[1]);
      samples.add("difference", nanos[1] - nanos[0]);
    }
    return 2;
  }
}

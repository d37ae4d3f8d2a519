package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.jdbc.CapturingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * What capturing the GTID of a commit costs the writer (issue part 5): one autocommit {@code
 * INSERT} per operation, with a context opened around it, through a pool of 8 connections on the
 * source, at 1 and at 8 threads. Parameter {@code capture}:
 *
 * <ul>
 *   <li>{@code none}: the pool itself, nothing captured.
 *   <li>{@code ownGtid}: {@link CapturingDataSource} over a pool with {@code
 *       trackSessionState=true}; the server reports the GTID in the commit's OK packet.
 *   <li>{@code globalQuery}: {@link CapturingDataSource} over a pool without it; every commit is
 *       followed by {@code SELECT @@GLOBAL.gtid_executed}.
 * </ul>
 *
 * <p>SampleTime gives the commit latency; throughput at {@code n} threads is {@code n / mean}, as
 * each thread commits back to back. The trial fails when the capture mode is not the one asked for.
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar CaptureOverheadBenchmark -f 1 -wi
 * 1 -i 3}.
 */
public class CaptureOverheadBenchmark extends ServerBenchmark {

  private static final int POOL_SIZE = 8;

  @Param({"none", "ownGtid", "globalQuery"})
  public String capture;

  private Cluster cluster;
  private DataSource writes;
  private final AtomicLong ids = new AtomicLong();

  @Setup(Level.Trial)
  public void start() {
    cluster = Cluster.start("capture");
    writes =
        switch (capture) {
          case "none" -> cluster.plainSourcePool(POOL_SIZE);
          case "ownGtid" -> CapturingDataSource.wrap(cluster.trackingSourcePool(POOL_SIZE));
          case "globalQuery" -> CapturingDataSource.wrap(cluster.plainSourcePool(POOL_SIZE));
          default -> throw new IllegalArgumentException("unknown capture mode " + capture);
        };
  }

  /** Fails the trial when capture did not work the way the parameter says. */
  @TearDown(Level.Trial)
  public void stop() {
    try {
      if (writes instanceof CapturingDataSource capturing) {
        CapturingDataSource.Stats stats = capturing.stats();
        boolean asAsked =
            stats.failed() == 0
                && ("ownGtid".equals(capture)
                    ? stats.tracked() > 0 && stats.queried() == 0
                    : stats.queried() > 0 && stats.tracked() == 0);
        if (!asAsked) {
          throw new IllegalStateException("capture " + capture + " ran as " + stats);
        }
      } else if (!(writes instanceof HikariDataSource)) {
        throw new IllegalStateException("no capture expected, got " + writes);
      }
    } finally {
      cluster.close();
    }
  }

  @Benchmark
  @Threads(1)
  public long commitOneThread() throws SQLException {
    return commit();
  }

  @Benchmark
  @Threads(8)
  public long commitEightThreads() throws SQLException {
    return commit();
  }

  private long commit() throws SQLException {
    long id = ids.incrementAndGet();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection c = writes.getConnection()) {
      Cluster.insertRow(c, id);
    }
    return id;
  }
}

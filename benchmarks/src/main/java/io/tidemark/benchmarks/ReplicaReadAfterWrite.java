package io.tidemark.benchmarks;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.dialect.Dialect;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * Read-after-write on a replica, against the replication floor, the same on each database whose
 * benchmark extends it. Before every invocation, outside the measured time, a {@link RowObserver}
 * starts asking the replica for the row the next write inserts, and the write ({@code INSERT} in
 * autocommit) commits on the source; its token is then read on the same connection as {@link
 * CapturingDataSource} reads it ({@link Dialect#committed}), after the acknowledgement is timed,
 * since that read is the capture's cost and not the replication's. The measured method starts after
 * the capture and reads the row back; every figure counts from the commit's acknowledgement:
 *
 * <ul>
 *   <li>{@code floor}: the observer's answer: commit acknowledgement to the row being visible on
 *       the replica, to one round trip.
 *   <li>{@code tidemark}: {@link ConsistentReader} with the captured token, budget 1 s.
 *   <li>{@code pinnedWaitThenRead}: the dialect's wait alone on a connection pinned up front, then
 *       the read: what no reader with this wait beats.
 *   <li>{@code alwaysSource}: read the source.
 * </ul>
 *
 * <p>A write the replica has not applied within 1 s is read on the source, as the reader's default
 * policy reads it, and counted among the source's reads. {@link Samples} pairs each read with the
 * floor of the same write ({@code floor}, {@code read}, {@code excess}), appended to {@code
 * -Dtidemark.bench.samples=FILE} and printed at the end of each trial.
 */
public abstract class ReplicaReadAfterWrite extends OwnWriteReads {

  static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(1);

  private ConsistentReader reader;
  private ReadOptions oneSecond;
  private RowObserver observer;
  private long lastId;

  /** A connection of its own on the replica, for the variants that wait on it themselves. */
  Connection pinnedReplica;

  /** The servers and the benchmark's table, started for this trial. */
  abstract SourceAndReplica start(String prefix) throws SQLException;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    SourceAndReplica cluster = closing(start("raw"));
    sourcePool = cluster.sourcePool(2);
    reader =
        ConsistentReader.builder(cluster.replicaPool(4), CapturingDataSource.wrap(sourcePool))
            .build();
    oneSecond = ReadOptions.defaults();
    observer = observing(new RowObserver(cluster.connectReplica()));
    pinnedReplica = cluster.connectReplica();
  }

  /** Arms the observer for the next row, then commits it; not part of the measurement. */
  @Setup(Level.Invocation)
  public void write() throws SQLException {
    id = ++lastId;
    observer.arm(id);
    try (Connection c = sourcePool.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setInt(2, (int) id);
      ps.executeUpdate();
      ackAt = System.nanoTime();
      required = Dialect.of(c).committed(c, false);
    }
    if (required.uuidCount() != 1) {
      throw new IllegalStateException("the write's position was not captured: " + required);
    }
    bySource = false;
  }

  @Benchmark
  public int tidemark() throws SQLException {
    ReadResult<@Nullable Integer> result =
        reader.read(oneSecond.requiring(required), c -> Cluster.readRow(c, id));
    ExecutionRecord record = result.record();
    bySource = record.role() == NodeRole.SOURCE;
    return done(result.value());
  }

  @Benchmark
  public int pinnedWaitThenRead() throws SQLException {
    if (!Dialect.of(pinnedReplica).await(pinnedReplica, required, BUDGET_NANOS)) {
      return alwaysSource();
    }
    return done(Cluster.readRow(pinnedReplica, id));
  }
}

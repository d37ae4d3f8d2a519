package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.WalPosition;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Read-after-write on a PostgreSQL hot standby, against the replication floor. Before every
 * invocation, outside the measured time, a {@link RowObserver} starts asking the standby for the
 * row the next write inserts, and the write ({@code INSERT} in autocommit) commits on the primary;
 * its token is then read on the same connection as {@link CapturingDataSource} reads it ({@link
 * Dialect#committed}), after the acknowledgement is timed, since that read is the capture's cost
 * and not the replication's. The measured method starts after the capture and reads the row back;
 * every figure counts from the commit's acknowledgement:
 *
 * <ul>
 *   <li>{@code floor}: the observer's answer: commit acknowledgement to the row being visible on
 *       the standby, to one round trip.
 *   <li>{@code tidemark}: {@link ConsistentReader} with the captured token, budget 1 s.
 *   <li>{@code pinnedWaitThenRead}: the dialect's wait alone (polls of the standby's replay
 *       position, back to back for a millisecond, then every millisecond) on a connection pinned up
 *       front, then the read: what no reader with this wait beats.
 *   <li>{@code pollReplayThenRead}: the client asks {@code pg_last_wal_replay_lsn()} every
 *       millisecond on a pinned connection, then reads: the plainest polling.
 *   <li>{@code alwaysSource}: read the primary.
 * </ul>
 *
 * <p>A write the standby has not replayed within 1 s is read on the primary, as the reader's
 * default policy reads it, and counted among the source's reads: here a flushed commit sometimes
 * reached the standby only with the next WAL, its walsender not woken (3 of the first 18 000 to 52
 * 000 commits in three runs on 18.6, one in 150 000 on 19rc1, none in 150 000 on 15.18).
 *
 * <p>{@link Samples} pairs each read with the floor of the same write ({@code floor}, {@code read},
 * {@code excess}), appended to {@code -Dtidemark.bench.samples=FILE} and printed at the end of each
 * trial. {@code bin/bench --server postgres} runs it.
 */
public class PostgresReadAfterWriteBenchmark extends ServerBenchmark {

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(1);

  private PostgresCluster cluster;
  private HikariDataSource primaryPool;
  private ConsistentReader reader;
  private ReadOptions oneSecond;
  private RowObserver observer;
  private Connection pinnedStandby;
  private long lastId;
  private final Samples samples = new Samples();
  private boolean recording;

  private long id;
  private GtidSet required = GtidSet.EMPTY;
  private long ackAt;
  private long doneAt;
  private boolean bySource;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = PostgresCluster.start("raw");
    primaryPool = cluster.primaryPool(2);
    reader =
        ConsistentReader.builder(cluster.standbyPool(4), CapturingDataSource.wrap(primaryPool))
            .build();
    oneSecond = ReadOptions.defaults();
    observer = new RowObserver(cluster.connect(cluster.standby));
    pinnedStandby = cluster.connect(cluster.standby);
  }

  @Setup(Level.Iteration)
  public void iteration(IterationParams params) {
    recording = params.getType() == IterationType.MEASUREMENT;
  }

  /** Arms the observer for the next row, then commits it; not part of the measurement. */
  @Setup(Level.Invocation)
  public void write() throws SQLException {
    id = ++lastId;
    observer.arm(id);
    try (Connection c = primaryPool.getConnection();
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

  @TearDown(Level.Invocation)
  public void pair() {
    long visibleAt = observer.visibleAt();
    if (!recording) {
      return;
    }
    samples.read(ackAt, visibleAt, doneAt, bySource);
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
  public int tidemark() throws SQLException {
    ReadResult<@Nullable Integer> result =
        reader.read(oneSecond.requiring(required), c -> readRow(c, id));
    ExecutionRecord record = result.record();
    bySource = record.role() == NodeRole.SOURCE;
    return done(result.value());
  }

  @Benchmark
  public int pinnedWaitThenRead() throws SQLException {
    if (!Dialect.of(pinnedStandby).await(pinnedStandby, required, BUDGET_NANOS)) {
      return alwaysSource();
    }
    return done(readRow(pinnedStandby, id));
  }

  @Benchmark
  public int pollReplayThenRead() throws SQLException {
    long lsn = WalPosition.in(required, required.uuids().iterator().next()).lsn();
    long deadline = System.nanoTime() + BUDGET_NANOS;
    try (PreparedStatement ps =
        pinnedStandby.prepareStatement("SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn")) {
      ps.setString(1, WalPosition.text(lsn));
      while (!replayed(ps)) {
        if (System.nanoTime() > deadline) {
          return alwaysSource();
        }
        LockSupport.parkNanos(POLL_NANOS);
      }
    }
    return done(readRow(pinnedStandby, id));
  }

  @Benchmark
  public int alwaysSource() throws SQLException {
    Integer value;
    try (Connection c = primaryPool.getConnection()) {
      value = readRow(c, id);
    }
    bySource = true;
    return done(value);
  }

  private static boolean replayed(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  private static @Nullable Integer readRow(Connection c, long id) throws SQLException {
    return Cluster.readRow(c, id);
  }

  private int done(@Nullable Integer value) {
    doneAt = System.nanoTime();
    if (value == null) {
      throw new IllegalStateException("read its own write " + id + " as missing");
    }
    return value;
  }
}

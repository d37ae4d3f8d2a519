package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * Read-after-write on a replica, against the replication floor (issue parts 1, 2 and 4). Before
 * every invocation, outside the measured time, a {@link VisibilityObserver} starts waiting on the
 * replica for the GTID the next write will get, and the write ({@code INSERT} in autocommit through
 * {@link CapturingDataSource}, GTID captured by session tracking) commits on the source. The
 * measured method then starts right after the commit's acknowledgement and reads the row back:
 *
 * <ul>
 *   <li>{@code floor}: nothing but the observer's answer, so its time is commit acknowledgement to
 *       the write being visible on the replica: the physical limit of reading one's write there.
 *   <li>{@code tidemark}: {@link ConsistentReader} with the captured token and the default budget
 *       of 1 s, the wait sent with the query in one round trip, as every read that waits does;
 *       {@code tidemarkTwoSecondBudget} the same with 2 s; {@code tidemarkPipelined} the same query
 *       through {@link ConsistentReader#query}.
 *   <li>{@code pinnedWaitThenRead} and {@code pinnedWaitAndReadTogether}: what no reader can beat
 *       here, with no pool, checks or budget: on a connection pinned up front, the wait for the
 *       token then the read, as two round trips, and as one text of both.
 *   <li>{@code alwaysSource}: read the source.
 *   <li>{@code sleepThenRead}: sleep 1 ms, read the replica, and the source when the row is not
 *       there yet.
 *   <li>{@code pollGtidSubset}: on a pinned replica connection, {@code GTID_SUBSET} every 1 ms
 *       until the token is executed (the source after 1 s), then read.
 * </ul>
 *
 * <p>JMH's SampleTime percentiles cover the read alone. Because every invocation also has the
 * observer's timestamp of the same write, {@link Samples} records pairs: {@code floor} and {@code
 * read} (both from the commit acknowledgement) and their difference {@code excess}, plus how many
 * reads the source served; they are appended to {@code -Dtidemark.bench.samples=FILE} for the
 * report. All variants run the observer, so they put the same load on the servers.
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar ReadAfterWriteBenchmark -f 1 -wi
 * 1 -i 3} (add {@code .tidemark} for one variant).
 */
public class ReadAfterWriteBenchmark extends OwnWriteReads {

  private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long POLL_BUDGET_NANOS = TimeUnit.SECONDS.toNanos(1);

  private HikariDataSource replicaPool;
  private CapturingDataSource capturing;
  private ConsistentReader reader;
  private ConsistentReader pipelining;
  private ReadOptions oneSecond;
  private ReadOptions twoSeconds;
  private VisibilityObserver observer;
  private Connection pinnedReplica;
  private Connection pinnedMultiStatement;
  private String sourceUuid;
  private long lastGno;
  private long lastId;

  // The write of the current invocation.
  private long waitedNanos = -1;
  private long acquiringNanos;
  private long queryingNanos;

  /** Starts the servers, pools, reader and observer; one read warms the reader's caches. */
  @Setup(Level.Trial)
  public void start() throws SQLException {
    Cluster cluster = closing(Cluster.start("raw"));
    sourcePool = cluster.trackingSourcePool(2);
    replicaPool = cluster.replicaPool(4);
    capturing = CapturingDataSource.wrap(sourcePool);
    reader = ConsistentReader.builder(replicaPool, capturing).build();
    pipelining = ConsistentReader.builder(cluster.replicaPool(4), capturing).build();
    oneSecond = ReadOptions.defaults();
    twoSeconds = ReadOptions.defaults().withTimeout(Duration.ofSeconds(2));
    observer =
        observing(
            new VisibilityObserver(
                cluster.connect(cluster.replica), cluster.connect(cluster.replica)));
    pinnedReplica = cluster.connect(cluster.replica);
    pinnedMultiStatement = cluster.connect(cluster.replica, "&allowMultiQueries=true");
    sourceUuid = cluster.source.serverUuid();
    lastGno = cluster.lastSourceGno();
  }

  /** Arms the observer for the next GTID, then commits the write; not part of the measurement. */
  @Setup(Level.Invocation)
  public void write() throws SQLException {
    long gno = lastGno + 1;
    String expected = sourceUuid + ":" + gno;
    observer.arm(expected);
    id = ++lastId;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection c = capturing.getConnection()) {
      Cluster.insertRow(c, id);
      ackAt = System.nanoTime();
      required = binding.context().gtids();
    }
    if (!required.equals(GtidSet.parse(expected))) {
      // Someone else wrote to the source: the observer waits for another transaction.
      throw new IllegalStateException("the write got " + required + ", expected " + expected);
    }
    lastGno = gno;
    bySource = false;
    waitedNanos = -1;
  }

  @Override
  void recordMore() {
    if (waitedNanos >= 0) {
      // Where a Tidemark read's time goes: in the wait, and everything else (hand-off, pool,
      // checks, the query).
      samples.add("waited", waitedNanos);
      samples.add("besidesWait", doneAt - ackAt - waitedNanos);
      samples.add("acquiring", acquiringNanos);
      samples.add("querying", queryingNanos);
    }
  }

  @Benchmark
  public int tidemark() throws SQLException {
    return throughTidemark(oneSecond);
  }

  @Benchmark
  public int tidemarkTwoSecondBudget() throws SQLException {
    return throughTidemark(twoSeconds);
  }

  @Benchmark
  public int tidemarkPipelined() throws SQLException {
    return recorded(
        pipelining.query(
            oneSecond.requiring(required),
            "SELECT v FROM t WHERE id = ?",
            rows -> rows.next() ? rows.getInt(1) : null,
            id));
  }

  @Benchmark
  public int pinnedWaitThenRead() throws SQLException {
    try (PreparedStatement ps =
        pinnedReplica.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1)")) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
      }
    }
    return done(Cluster.readRow(pinnedReplica, id));
  }

  @Benchmark
  public int pinnedWaitAndReadTogether() throws SQLException {
    try (PreparedStatement ps =
        pinnedMultiStatement.prepareStatement(
            "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1); SELECT v FROM t WHERE id = ?")) {
      ps.setString(1, required.toString());
      ps.setLong(2, id);
      ps.execute();
      ps.getMoreResults();
      try (ResultSet rs = ps.getResultSet()) {
        return done(rs.next() ? rs.getInt(1) : null);
      }
    }
  }

  @Benchmark
  public int sleepThenRead() throws SQLException {
    LockSupport.parkNanos(SLEEP_NANOS);
    Integer value;
    try (Connection c = replicaPool.getConnection()) {
      value = Cluster.readRow(c, id);
    }
    if (value == null) {
      try (Connection c = sourcePool.getConnection()) {
        value = Cluster.readRow(c, id);
      }
      bySource = true;
    }
    return done(value);
  }

  @Benchmark
  public int pollGtidSubset() throws SQLException {
    String gtids = required.toString();
    long deadline = System.nanoTime() + POLL_BUDGET_NANOS;
    try (PreparedStatement ps =
        pinnedReplica.prepareStatement("SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed)")) {
      ps.setString(1, gtids);
      while (!executed(ps)) {
        if (System.nanoTime() > deadline) {
          try (Connection c = sourcePool.getConnection()) {
            bySource = true;
            return done(Cluster.readRow(c, id));
          }
        }
        LockSupport.parkNanos(POLL_NANOS);
      }
    }
    return done(Cluster.readRow(pinnedReplica, id));
  }

  private static boolean executed(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1) == 1;
    }
  }

  private int throughTidemark(ReadOptions options) throws SQLException {
    return recorded(reader.read(options.requiring(required), c -> Cluster.readRow(c, id)));
  }

  private int recorded(ReadResult<@Nullable Integer> result) {
    ExecutionRecord record = result.record();
    bySource = record.role() == NodeRole.SOURCE;
    waitedNanos = record.waited().toNanos();
    acquiringNanos = record.acquiring().toNanos();
    queryingNanos = record.querying().toNanos();
    return done(result.value());
  }
}

package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What a wait costs when the replica already has the token (issue part 3), on a caught-up replica:
 *
 * <ul>
 *   <li>{@code selectOne} and {@code satisfiedWait}: {@code SELECT 1} against {@code SELECT
 *       WAIT_FOR_EXECUTED_GTID_SET(token, 1)} on one pinned connection, for tokens of 1 UUID with 1
 *       interval, 3 UUIDs with 30 intervals and 10 UUIDs with 1 000 intervals in all (parameter
 *       {@code required}, UUIDs x intervals). The replica is given those GTIDs up front by adding
 *       them to its {@code gtid_purged}, which needs no transactions.
 *   <li>{@code plainReplicaRead} and {@code fastPath}: the same primary-key read from the replica
 *       pool, once straight and once through {@link ConsistentReader} with a token the reader
 *       already knows the replica has executed, which skips the wait; the difference is all
 *       Tidemark adds to a read that needs no waiting. {@code plainReadViaHelperThread} takes the
 *       pooled connection on a helper thread, as the reader does to bound the wait for it, to tell
 *       that hand-off's share of the difference; {@code plainReadSocketBound} bounds the plain
 *       read's socket reads as the reader does (set before, restored after), which makes the driver
 *       read with a timeout. {@code interleavedReads} rotates the four within one trial and records
 *       each per invocation (see there).
 * </ul>
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar SatisfiedWaitBenchmark -f 1 -wi 1
 * -i 3}.
 */
public class SatisfiedWaitBenchmark extends SampledBenchmark {

  /** Made-up source UUIDs whose GTIDs only the replica gets; never waited for by the reader. */
  private static final String[] UUIDS = {
    "0b0e9a10-0000-4000-8000-000000000001", "0b0e9a10-0000-4000-8000-000000000002",
    "0b0e9a10-0000-4000-8000-000000000003", "0b0e9a10-0000-4000-8000-000000000004",
    "0b0e9a10-0000-4000-8000-000000000005", "0b0e9a10-0000-4000-8000-000000000006",
    "0b0e9a10-0000-4000-8000-000000000007", "0b0e9a10-0000-4000-8000-000000000008",
    "0b0e9a10-0000-4000-8000-000000000009", "0b0e9a10-0000-4000-8000-000000000010",
  };

  /** Tokens by shape (UUIDs x intervals in all); each interval is a single odd GNO. */
  private static final Map<String, String> TOKENS =
      Map.of("1x1", gtids(1, 1), "3x30", gtids(3, 10), "10x1000", gtids(10, 100));

  /** The token shape of {@code satisfiedWait}. */
  @State(Scope.Benchmark)
  public static class Shape {
    @Param({"1x1", "3x30", "10x1000"})
    public String token;
  }

  private Cluster cluster;
  private Connection pinned;
  private PreparedStatement selectOne;
  private PreparedStatement satisfiedWait;
  private HikariDataSource replicaPool;
  private ConsistentReader reader;
  private ReadOptions caughtUp;
  private int turn;
  private final ExecutorService helper =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "acquire-helper");
            t.setDaemon(true);
            return t;
          });

  /** Gives the replica every token's GTIDs and teaches the reader that it is caught up. */
  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = Cluster.start("satisfied");
    // Only what the replica lacks: a topology shared by the smoke run's trials has it already.
    String missing =
        cluster.replica.queryString(
            "SELECT GTID_SUBTRACT('" + TOKENS.get("10x1000") + "', @@GLOBAL.gtid_executed)");
    if (missing != null && !missing.isBlank()) {
      cluster.replica.execute("SET GLOBAL gtid_purged = '+" + missing.replace("\n", "") + "'");
    }
    cluster.source.execute(
        "INSERT INTO `" + cluster.database + "`.t (id, v) VALUES (1, 1)",
        "INSERT INTO `" + cluster.database + "`.t (id, v) VALUES (2, 2)");
    cluster.topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
    pinned = cluster.connect(cluster.replica);
    selectOne = pinned.prepareStatement("SELECT 1");
    satisfiedWait = pinned.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1)");
    replicaPool = cluster.replicaPool(2);
    HikariDataSource sourcePool = cluster.plainSourcePool(1);
    reader = ConsistentReader.builder(replicaPool, sourcePool).build();
    caughtUp = ReadOptions.defaults().requiring(GtidSet.parse(cluster.source.gtidExecuted()));
    FastPathReads.learnCaughtUp(reader, caughtUp, 1);
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) {
    if (params.getBenchmark().endsWith(".interleavedReads")) {
      samples.publish(params.getBenchmark());
    }
    helper.shutdownNow();
    cluster.close();
  }

  @Benchmark
  public int selectOne() throws SQLException {
    try (ResultSet rs = selectOne.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Benchmark
  public int satisfiedWait(Shape shape) throws SQLException {
    satisfiedWait.setString(1, TOKENS.get(shape.token));
    try (ResultSet rs = satisfiedWait.executeQuery()) {
      rs.next();
      int result = rs.getInt(1);
      if (result != 0) {
        throw new IllegalStateException("the wait for a token the replica has timed out");
      }
      return result;
    }
  }

  @Benchmark
  public int plainReplicaRead() throws SQLException {
    return FastPathReads.plain(replicaPool);
  }

  /**
   * The plain read with the connection taken on a helper thread, the way the reader takes one
   * (bounded by a deadline): how much of the fast path's cost is that hand-off alone.
   */
  @Benchmark
  public int plainReadViaHelperThread() throws Exception {
    Future<Connection> taken = helper.submit(() -> replicaPool.getConnection());
    try (Connection c = taken.get(5, TimeUnit.SECONDS)) {
      return FastPathReads.present(Cluster.readRow(c, 2));
    }
  }

  /** The plain read with its socket reads bounded for its time, as the reader bounds them. */
  @Benchmark
  public int plainReadSocketBound() throws SQLException {
    try (Connection c = replicaPool.getConnection()) {
      int before = c.getNetworkTimeout();
      c.setNetworkTimeout(Runnable::run, 1050);
      try {
        return FastPathReads.present(Cluster.readRow(c, 2));
      } finally {
        c.setNetworkTimeout(Runnable::run, before);
      }
    }
  }

  @Benchmark
  public int fastPath() throws SQLException {
    return FastPathReads.fastPath(reader, caughtUp);
  }

  /**
   * {@code plainReplicaRead}, {@code plainReadViaHelperThread}, {@code plainReadSocketBound} and
   * {@code fastPath} one after the other, in rotating order, each timed into {@link Samples}:
   * compared within one trial and invocation by invocation, which separate trials on a noisy
   * machine cannot do to within a few percent. The score is the time of all three.
   */
  @Benchmark
  public int interleavedReads() throws Exception {
    long[] nanos =
        FastPathReads.inTurn(
            turn,
            this::plainReplicaRead,
            this::plainReadViaHelperThread,
            this::plainReadSocketBound,
            this::fastPath);
    turn = (turn + 1) % 4;
    if (recording) {
      samples.add("plain", nanos[0]);
      samples.add("viaHelperThread", nanos[1]);
      samples.add("socketBound", nanos[2]);
      samples.add("fastPath", nanos[3]);
      samples.add("difference", nanos[3] - nanos[0]);
      samples.add("helperDifference", nanos[1] - nanos[0]);
      samples.add("socketBoundDifference", nanos[2] - nanos[0]);
    }
    return 4;
  }

  /** {@code uuids} of the made-up UUIDs with {@code intervals} single odd GNOs each. */
  private static String gtids(int uuids, int intervals) {
    StringBuilder out = new StringBuilder();
    for (int u = 0; u < uuids; u++) {
      out.append(u == 0 ? "" : ",").append(UUIDS[u]);
      for (int i = 0; i < intervals; i++) {
        out.append(':').append(2 * i + 1);
      }
    }
    return out.toString();
  }
}

package io.tidemark.benchmarks;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.FakeCluster;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link ConsistentReader} itself adds to a read, without servers (issue "Performance"): the
 * replica and the source are core's in-memory fakes ({@link FakeCluster}), where a statement costs
 * a few proxy calls, so the reader's own work is not lost in network and server time as in {@link
 * SatisfiedWaitBenchmark}. Each variant runs the same primary-key read as there ({@link
 * Cluster#readRow}) through the same pool of one fake replica connection:
 *
 * <ul>
 *   <li>{@code plain}: a connection from the pool, the query, close; the baseline.
 *   <li>{@code fastPath}: through the reader with a token it knows the replica has executed ({@link
 *       Reason#REPLICA_CAUGHT_UP}), so no wait is sent.
 *   <li>{@code noToken}: through the reader with no token ({@link Reason#REPLICA_NO_TOKEN}).
 *   <li>{@code afterWait}: through the reader with a token of one GTID not seen before, which the
 *       fake replica executes as soon as it is waited for ({@link Reason#REPLICA_AFTER_WAIT}): the
 *       wait's statement on the fake, no sleep. The time includes naming that GTID and telling the
 *       fake, a few hundred nanoseconds.
 * </ul>
 *
 * <p>Mean time per read, and with {@code -prof gc} the bytes allocated per read. The fakes' own
 * cost is in every figure, the baseline's included, and each statement the reader adds pays it too;
 * compare the variants of one run, by their difference to {@code plain} more than by their ratio,
 * which a server's round trips would make far smaller. The fakes are not Connector/J, so the reader
 * takes its path for other drivers: every read also sends {@code ROLLBACK} and asks the server for
 * its UUID, which Connector/J's session state spares it after a connection's first read.
 *
 * <p>Run alone: {@code ./mvnw -B -pl benchmarks -am package -DskipTests} then {@code java -jar
 * benchmarks/target/benchmarks.jar ReaderOverheadBenchmark -f 1 -wi 3 -w 1s -i 3 -r 1s -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
public class ReaderOverheadBenchmark extends ForkedBenchmark {

  private static final String SOURCE_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String REPLICA_UUID = "0ad6eae9-1234-11e1-9e33-c80aa9429562";

  /** What both servers have executed at the start; the fast path's token. */
  private static final String EXECUTED = SOURCE_UUID + ":1-7";

  private static final ReadOptions NO_TOKEN = ReadOptions.defaults();

  private DataSource replicaPool;
  private FakeCluster cluster;
  private ConsistentReader reader;
  private ReadOptions caughtUp;
  private long nextGno = 8;

  @Setup
  public void setUp() throws SQLException {
    // The one place that scripts the fakes: they answer the reader's statements themselves.
    cluster =
        new FakeCluster(SOURCE_UUID, REPLICA_UUID, EXECUTED)
            .answering("SELECT v FROM t WHERE id = ?", 2);
    replicaPool = cluster.replicaPool();
    reader =
        ConsistentReader.builder(replicaPool, cluster.sourcePool())
            .ticker(cluster.ticker())
            .build();
    caughtUp = ReadOptions.defaults().requiring(GtidSet.parse(EXECUTED));
    // The first read looks up the source's UUIDs and learns what the replica has executed, the
    // first wait how the replica treats fractional timeouts: work no later read repeats. Each
    // variant runs once here, to fail the setup rather than measure a path other than its own.
    reader.read(caughtUp, ReaderOverheadBenchmark::readRow);
    fastPath();
    noToken();
    afterWait();
  }

  @Benchmark
  public int plain() throws SQLException {
    try (Connection c = replicaPool.getConnection()) {
      return readRow(c);
    }
  }

  @Benchmark
  public int fastPath() throws SQLException {
    return served(
        reader.read(caughtUp, ReaderOverheadBenchmark::readRow), Reason.REPLICA_CAUGHT_UP);
  }

  @Benchmark
  public int noToken() throws SQLException {
    return served(reader.read(NO_TOKEN, ReaderOverheadBenchmark::readRow), Reason.REPLICA_NO_TOKEN);
  }

  @Benchmark
  public int afterWait() throws SQLException {
    String gtid = SOURCE_UUID + ":" + nextGno++;
    cluster.replicaExecutesWhenWaitedFor(gtid);
    ReadOptions options = NO_TOKEN.requiring(GtidSet.parse(gtid));
    return served(
        reader.read(options, ReaderOverheadBenchmark::readRow), Reason.REPLICA_AFTER_WAIT);
  }

  private static int readRow(Connection c) throws SQLException {
    @Nullable Integer value = Cluster.readRow(c, 2);
    if (value == null) {
      throw new IllegalStateException("the fake replica lacks row 2");
    }
    return value;
  }

  /** The value read, once the read is known to have taken the path measured. */
  private static int served(ReadResult<Integer> result, Reason reason) {
    if (result.record().reason() != reason) {
      throw new IllegalStateException("not " + reason + ": " + result.record());
    }
    return result.value();
  }
}

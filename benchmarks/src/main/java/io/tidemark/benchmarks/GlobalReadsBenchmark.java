package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * A burst of {@code readers} concurrent reads of the row the source acknowledged just before the
 * burst (the write is outside the measured time), through one {@link ConsistentReader} over a
 * replica pool of 16. Parameter {@code level}:
 *
 * <ul>
 *   <li>{@code global}: token-less {@link ConsistencyLevel#GLOBAL} reads: each sees what the source
 *       had executed when it began, from asks of the source's position that the reads in flight
 *       share, then the usual wait;
 *   <li>{@code session}: the same reads carrying the write's token, asking the source nothing;
 *   <li>{@code session-after-select-1}: each of those after a {@code SELECT 1} on a connection of
 *       the source's pool: one round trip more than {@code session}, the most {@code global} aims
 *       to add.
 * </ul>
 *
 * <p>The score is the burst, from its start to the last read's row; a read without the row fails
 * the run. At the end of a trial it prints the asks that reached the source, per burst and per
 * second of bursts, and the most on their way at once, which fails the run above one.
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar GlobalReadsBenchmark -f 1 -wi 2
 * -i 3}.
 */
public class GlobalReadsBenchmark extends ServerBenchmark {

  /** What the reader sends to learn the source's position, counted where it reaches the source. */
  private static final String ASK = "SELECT @@GLOBAL.gtid_executed";

  @Param({"1", "500"})
  public int readers;

  @Param({"global", "session", "session-after-select-1"})
  public String level;

  private Cluster cluster;
  private Connection writer;
  private ConsistentReader reader;
  private DataSource sourcePool;
  private boolean roundTripFirst;
  private ReadOptions options;
  private ExecutorService threads;
  private String sourceUuid;
  private long lastGno;
  private long lastId;
  private final AtomicInteger asks = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger mostInFlight = new AtomicInteger();
  private boolean recording;
  private long bursts;
  private long burstNanos;
  private long askedInBursts;
  private int peakInFlight;

  // The current invocation.
  private long id;
  private int asksBefore;
  private long began;
  private long ended;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    cluster = Cluster.start("global");
    writer = cluster.connect(cluster.source);
    HikariDataSource replicaPool = cluster.replicaPool(16);
    sourcePool = countingAsks(cluster.plainSourcePool(4));
    roundTripFirst = "session-after-select-1".equals(level);
    reader = ConsistentReader.builder(replicaPool, sourcePool).maxReplicaReads(16).build();
    options =
        ReadOptions.defaults()
            .withTimeout(Duration.ofSeconds(3))
            .withLevel("global".equals(level) ? ConsistencyLevel.GLOBAL : ConsistencyLevel.SESSION);
    threads = Executors.newFixedThreadPool(readers);
    sourceUuid = cluster.source.serverUuid();
    lastGno = cluster.lastSourceGno();
    // Loads what the reader learns once: the cluster's source UUIDs, how the replica waits.
    reader.read(
        options.requiring(GtidSet.parse(cluster.source.gtidExecuted())),
        c -> Cluster.readRow(c, 0));
  }

  @Setup(Level.Iteration)
  public void iteration(IterationParams params) {
    recording = params.getType() == IterationType.MEASUREMENT;
  }

  /** Commits the row the burst must see. */
  @Setup(Level.Invocation)
  public void write() throws SQLException {
    id = ++lastId;
    Cluster.insertRow(writer, id);
    lastGno++;
    asksBefore = asks.get();
    mostInFlight.set(0);
  }

  @Benchmark
  public int burst() throws InterruptedException {
    ReadOptions read =
        "global".equals(level)
            ? options
            : options.requiring(GtidSet.parse(sourceUuid + ":" + lastGno));
    CountDownLatch go = new CountDownLatch(1);
    List<Future<@Nullable Integer>> reads = new ArrayList<>(readers);
    for (int i = 0; i < readers; i++) {
      reads.add(
          threads.submit(
              () -> {
                go.await();
                if (roundTripFirst) {
                  selectOne();
                }
                try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
                  ReadResult<@Nullable Integer> result =
                      reader.read(read, c -> Cluster.readRow(c, id));
                  return result.value();
                }
              }));
    }
    began = System.nanoTime();
    go.countDown();
    int seen = 0;
    for (Future<@Nullable Integer> result : reads) {
      if (Cluster.done(result) == null) {
        throw new IllegalStateException(
            "a " + level + " read missed row " + id + ", acknowledged before it began");
      }
      seen++;
    }
    ended = System.nanoTime();
    return seen;
  }

  private void selectOne() throws SQLException {
    try (Connection c = sourcePool.getConnection();
        Statement s = c.createStatement()) {
      s.executeQuery("SELECT 1").close();
    }
  }

  @TearDown(Level.Invocation)
  public void record() {
    if (recording) {
      bursts++;
      burstNanos += ended - began;
      askedInBursts += asks.get() - asksBefore;
      peakInFlight = Math.max(peakInFlight, mostInFlight.get());
    }
  }

  @TearDown(Level.Trial)
  public void stop(BenchmarkParams params) {
    threads.shutdownNow();
    cluster.close();
    System.out.printf(
        "%n%s %s x%d: %d bursts, %d asks of the source (%.2f per burst, %.0f per second of"
            + " bursts), at most %d on their way at once%n",
        params.getBenchmark(),
        level,
        readers,
        bursts,
        askedInBursts,
        bursts == 0 ? 0.0 : (double) askedInBursts / bursts,
        burstNanos == 0 ? 0.0 : askedInBursts / (burstNanos / 1e9),
        peakInFlight);
    if (peakInFlight > 1) {
      throw new IllegalStateException(peakInFlight + " asks of one source on their way at once");
    }
  }

  /** {@code pool}, counting the asks of the source's position on their way. */
  private DataSource countingAsks(DataSource pool) {
    return proxy(
        DataSource.class,
        pool,
        (method, result) ->
            method.getName().equals("getConnection")
                ? proxy(
                    Connection.class,
                    (Connection) result,
                    (m, r) -> m.getName().equals("createStatement") ? counting((Statement) r) : r)
                : result);
  }

  private Statement counting(Statement statement) {
    return (Statement)
        Proxy.newProxyInstance(
            Statement.class.getClassLoader(),
            new Class<?>[] {Statement.class},
            (p, m, a) -> {
              boolean ask = m.getName().equals("executeQuery") && ASK.equals(a[0]);
              if (ask) {
                asks.incrementAndGet();
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
              }
              try {
                return invoke(statement, m, a);
              } finally {
                if (ask) {
                  inFlight.decrementAndGet();
                }
              }
            });
  }

  private interface After {
    Object apply(Method method, Object result);
  }

  private static <T> T proxy(Class<T> type, T target, After after) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (p, m, a) -> after.apply(m, invoke(target, m, a))));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}

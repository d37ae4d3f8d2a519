package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.Closing;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.ConsistentReadException;
import io.tidemark.Reason;
import io.tidemark.StandIns;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code GLOBAL} level without a token: a read sees every write acknowledged before it began,
 * whoever made it, on a lagging replica; a burst of such reads shares a few asks of the source's
 * position, one on its way at a time.
 */
class GlobalReadsIT {

  private static final int READERS = 16;
  private static final int READS = 200;
  private static final Duration DELAY = Duration.ofSeconds(1);
  private static final int BURST = 500;
  private static final Duration WRITE_EVERY = Duration.ofMillis(2);

  private static MySqlTopology topology;
  private static MySqlNode replica;
  private static String db;
  private static HikariDataSource sourcePool;
  private static HikariDataSource replicaPool;

  @BeforeAll
  static void start() {
    // A topology of its own: this test loads its replica harder than any other.
    topology = MySqlTopology.builder().start();
    replica = topology.replica();
    db = topology.createDatabase("global");
    topology
        .source()
        .execute(
            "CREATE TABLE `" + db + "`.counter (id INT PRIMARY KEY, n BIGINT)",
            "INSERT INTO `" + db + "`.counter VALUES (1, 0)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    // Set once, before any wait: twice in CI, an 8.0.15 replica stopped answering handshakes after
    // its applier was stopped while many reads waited on it (cause not established).
    replica.delayApplier(DELAY);
    sourcePool = Pools.plain(topology.source(), db, 4);
    replicaPool = Pools.replica(replica, db, 8);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(sourcePool, replicaPool, topology);
  }

  @Test
  void everyGlobalReadSeesWhatWasAcknowledgedBeforeItBegan() throws Exception {
    ConsistentReader reader = reader(sourcePool);
    Run global = run(reader, reader.defaults().withLevel(ConsistencyLevel.GLOBAL));
    Run session = run(reader, reader.defaults().withLevel(ConsistencyLevel.SESSION));

    assertThat(session.stale).as("control: token-less SESSION reads, stale").isPositive();
    assertThat(global.stale).as("GLOBAL reads older than a write acknowledged before").isZero();
    assertThat(global.served).as("GLOBAL reads served, of %d", READS).isGreaterThan(READS / 2);
    assertThat(global.onReplica).as("GLOBAL reads served by the replica").isPositive();
  }

  /**
   * {@code BOUNDED} reads allowed more staleness than the replica's delay: none older than that
   * before it began, most served by the replica, and the source asked about once per staleness.
   */
  @Test
  void aBoundedReadIsNeverStalerThanItsBoundAndTheSourceIsAskedRarely() throws Exception {
    ConsistentReader reader = reader(sourcePool);
    ReadOptions bounded =
        reader
            .defaults()
            .withLevel(ConsistencyLevel.BOUNDED)
            .withMaxStaleness(DELAY.multipliedBy(3).dividedBy(2));
    long asksBefore = reader.sourcePositionAsks();

    Run run = run(reader, bounded);

    long asks = reader.sourcePositionAsks() - asksBefore;
    assertThat(run.stale).as("BOUNDED reads older than their bound").isZero();
    assertThat(run.served).as("BOUNDED reads served, of %d", READS).isGreaterThan(READS / 2);
    assertThat(run.onReplica).as("BOUNDED reads served by the replica").isGreaterThan(READS / 2);
    assertThat(asks).as("asks of the source's position for %d reads", READS).isLessThan(READS / 10);
    System.out.printf(
        "figures: BOUNDED %d ms on a replica %d ms behind: %d of %d served, %d on the replica,"
            + " %d asks of the source%n",
        bounded.maxStaleness().toMillis(),
        DELAY.toMillis(),
        run.served,
        READS,
        run.onReplica,
        asks);
  }

  /**
   * A burst of reads shares the asks, one on its way at a time, the next for all that came
   * meanwhile: counted where they reach the source's connections.
   */
  @Test
  void aBurstOfGlobalReadsSharesAsksOfTheSourceOneInFlightAtATime() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger mostInFlight = new AtomicInteger();
    AtomicInteger asks = new AtomicInteger();
    DataSource counting =
        countingAsks(
            sourcePool,
            () -> {
              asks.incrementAndGet();
              mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            },
            inFlight::decrementAndGet);
    ConsistentReader reader = reader(counting);
    ReadOptions options = reader.defaults().withLevel(ConsistencyLevel.GLOBAL);
    // The reader's first read also loads the cluster's source UUIDs, with the same statement.
    try (ConsistencyContext.Binding first = ConsistencyContext.open()) {
      reader.read(options, GlobalReadsIT::count);
    }
    long asksBefore = reader.sourcePositionAsks();
    asks.set(0);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(BURST);
    List<Future<Long>> reads = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      reads.add(
          threads.submit(
              () -> {
                start.await();
                try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
                  return reader.read(options, GlobalReadsIT::count).value();
                } catch (ConsistentReadException refused) {
                  return -1L;
                }
              }));
    }
    long before = count(topology.source());
    start.countDown();
    long served = 0;
    for (Future<Long> read : reads) {
      long value = read.get(1, TimeUnit.MINUTES);
      if (value >= 0) {
        served++;
        assertThat(value).isGreaterThanOrEqualTo(before);
      }
    }
    threads.shutdown();

    assertThat(served).as("reads served, of %d", BURST).isPositive();
    assertThat(mostInFlight.get()).as("asks of the source's position on their way at once").isOne();
    assertThat(asks.get())
        .as("asks of the source's position for %d reads", BURST)
        .isPositive()
        .isLessThan(BURST)
        .isEqualTo(reader.sourcePositionAsks() - asksBefore);
  }

  /** A reader on the replica whose reads wait up to three times the replica's delay. */
  private static ConsistentReader reader(DataSource source) {
    return ConsistentReader.builder(replicaPool, source)
        .defaults(ReadOptions.defaults().withTimeout(DELAY.multipliedBy(3)))
        .build();
  }

  /** {@code pool}, telling when a statement asks what the source executed, and when it ended. */
  private static DataSource countingAsks(DataSource pool, Runnable asked, Runnable answered) {
    return StandIns.of(
        DataSource.class,
        (proxy, method, args) -> {
          Object result = invoke(pool, method, args);
          return method.getName().equals("getConnection")
              ? counting((Connection) result, asked, answered)
              : result;
        });
  }

  private static Connection counting(Connection connection, Runnable asked, Runnable answered) {
    return StandIns.of(
        Connection.class,
        (proxy, method, args) -> {
          Object result = invoke(connection, method, args);
          if (!method.getName().equals("createStatement")) {
            return result;
          }
          Statement statement = (Statement) result;
          return StandIns.of(
              Statement.class,
              (p, m, a) -> {
                boolean ask =
                    m.getName().equals("executeQuery")
                        && "SELECT @@GLOBAL.gtid_executed".equals(a[0]);
                if (ask) {
                  asked.run();
                }
                try {
                  return invoke(statement, m, a);
                } finally {
                  if (ask) {
                    answered.run();
                  }
                }
              });
        });
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private record Run(long stale, long served, long onReplica) {}

  /**
   * {@value #READS} token-less reads of the counter with {@code options} by {@value #READERS}
   * threads, while another client increments it every {@code WRITE_EVERY}; the replica applies each
   * write a second late. A read is stale when it misses a write acknowledged before it began
   * (before that by its maximum staleness at the {@code BOUNDED} level).
   */
  private static Run run(ConsistentReader reader, ReadOptions options) throws Exception {
    AtomicLong acknowledged = new AtomicLong(count(topology.source()));
    // When each count was acknowledged, by the test's clock.
    NavigableMap<Long, Long> history = new ConcurrentSkipListMap<>();
    history.put(System.nanoTime(), acknowledged.get());
    long allowed =
        options.level() == ConsistencyLevel.BOUNDED ? options.maxStaleness().toNanos() : 0;
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong stale = new AtomicLong();
    AtomicLong served = new AtomicLong();
    AtomicLong onReplica = new AtomicLong();
    AtomicLong left = new AtomicLong(READS);
    ExecutorService threads = Executors.newFixedThreadPool(READERS + 2);
    List<Future<?>> running = new ArrayList<>();
    running.add(
        threads.submit(
            () -> {
              while (writing.get()) {
                try (Connection c = sourcePool.getConnection();
                    Statement s = c.createStatement()) {
                  s.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = 1");
                  history.put(System.nanoTime(), acknowledged.incrementAndGet());
                }
                // A steady rate the replica's one applier keeps up with on a loaded machine: as
                // fast as the source commits, it fell behind by more than the budget.
                LockSupport.parkNanos(WRITE_EVERY.toNanos());
              }
              return null;
            }));
    ReadOptions unobserved = options.withMonotonic(false);
    List<Future<?>> readers = new ArrayList<>();
    for (int i = 0; i < READERS; i++) {
      readers.add(
          threads.submit(
              () -> {
                while (left.decrementAndGet() >= 0) {
                  Map.Entry<Long, Long> due = history.floorEntry(System.nanoTime() - allowed);
                  long before = due == null ? 0 : due.getValue();
                  try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
                    ReadResult<Long> read = reader.read(unobserved, GlobalReadsIT::count);
                    served.incrementAndGet();
                    if (read.value() < before) {
                      stale.incrementAndGet();
                    }
                    if (read.record().reason() != Reason.SOURCE_FALLBACK) {
                      onReplica.incrementAndGet();
                    }
                  } catch (ConsistentReadException refused) {
                    // Refused in time (the fallbacks' admission limit): no answer, nothing stale.
                  }
                }
                return null;
              }));
    }
    for (Future<?> r : readers) {
      r.get(5, TimeUnit.MINUTES);
    }
    writing.set(false);
    for (Future<?> r : running) {
      r.get(30, TimeUnit.SECONDS);
    }
    threads.shutdown();
    return new Run(stale.get(), served.get(), onReplica.get());
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT n FROM counter WHERE id = 1")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long count(MySqlNode node) {
    return Long.parseLong(node.queryString("SELECT n FROM `" + db + "`.counter WHERE id = 1"));
  }
}

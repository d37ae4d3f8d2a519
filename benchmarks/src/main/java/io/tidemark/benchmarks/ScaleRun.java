package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.benchmarks.report.LatencyChart;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The scale run: {@code clients} concurrent clients, each reading back the row it has just written
 * with the token of its own write (GTIDs that differ from client to client), then pausing a while
 * ({@code thinkMillis} on average, drawn at random so that they do not march in step), over a
 * replica pool of {@value #POOL} connections, while the replica's applier is held {@value
 * #HELD_MILLIS} ms, freed as long, and held again. Each way of reading back runs for its own {@code
 * seconds}, after {@value #WARM_UP_SECONDS} s not counted:
 *
 * <ul>
 *   <li>{@code Tidemark}: a {@link ConsistentReader} over the pool (its permits as many as the
 *       pool's connections, a 1 s budget, falling back to the source), the reads waiting in memory
 *       behind one wait on the replica;
 *   <li>{@code a wait per read}: what a reader whose waits share nothing does: each read takes a
 *       connection of the pool (within its budget), waits there for its own token, and reads the
 *       source when either runs out;
 *   <li>{@code the source}: every read on the source.
 * </ul>
 *
 * <p>The floor of a read is how long after its write's acknowledgement the replica had that write:
 * a watcher on a replica connection of its own, outside the pool, waits for the source's next
 * transaction again and again and notes when each one appeared.
 *
 * <p>It writes a table of the reads served by the replica, the source and neither, the time from
 * each write's acknowledgement to its row read back and the floor of the same writes, and the most
 * pool connections in use and threads waiting for one (sampled every millisecond), to {@code
 * <prefix>.md}, and their distributions to {@code <prefix>.svg}.
 *
 * <p>Run alone, after {@code mvn -pl benchmarks -am package -DskipTests}: {@code java -cp
 * benchmarks/target/benchmarks.jar io.tidemark.benchmarks.ScaleRun /tmp/scale 1000 10 MySQL 2000}.
 */
public final class ScaleRun {

  private static final int POOL = 10;
  private static final int HELD_MILLIS = 200;
  private static final int WARM_UP_SECONDS = 2;
  private static final Duration BUDGET = Duration.ofSeconds(1);

  private enum Way {
    TIDEMARK("Tidemark"),
    PER_READ_WAITS("a wait per read"),
    SOURCE("the source");

    private final String label;

    Way(String label) {
      this.label = label;
    }
  }

  /** A read that returned its row: its write's GNO, acknowledgement and the time it took. */
  private record Sample(long gno, long acknowledged, long nanos) {}

  /** What one way of reading back did. */
  private static final class Tally {
    private final List<Sample> samples = new ArrayList<>();
    private final AtomicLong replica = new AtomicLong();
    private final AtomicLong source = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicInteger mostInUse = new AtomicInteger();
    private final AtomicInteger mostWaiting = new AtomicInteger();
    private long[] floor = new long[0];

    synchronized void sample(Sample sample) {
      samples.add(sample);
    }

    synchronized long[] sorted() {
      long[] sorted = samples.stream().mapToLong(Sample::nanos).toArray();
      Arrays.sort(sorted);
      return sorted;
    }

    synchronized boolean seenAll(Map<Long, Long> executed) {
      return samples.stream().allMatch(sample -> executed.containsKey(sample.gno()));
    }

    /** The floors of the reads' writes, from when the replica was seen to have each. */
    synchronized void floor(Map<Long, Long> executed) {
      floor =
          samples.stream()
              .mapToLong(
                  sample ->
                      Math.max(
                          0,
                          executed.getOrDefault(sample.gno(), sample.acknowledged())
                              - sample.acknowledged()))
              .sorted()
              .toArray();
    }
  }

  /** The source's pools, for writes (capturing their tokens) and reads, and the replica's. */
  private record DataSourceSet(
      CapturingDataSource writes,
      HikariDataSource sourceReads,
      HikariDataSource replica,
      String origin) {}

  private ScaleRun() {}

  /**
   * Arguments: the output prefix, the clients, the seconds per way, the server's name, and the
   * clients' average pause between a read and their next write in milliseconds.
   */
  public static void main(String[] args) throws Exception {
    Path prefix = Path.of(args[0]);
    int clients = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    String server = args.length > 3 ? args[3] : "MySQL";
    Duration think = Duration.ofMillis(args.length > 4 ? Long.parseLong(args[4]) : 2000);
    Map<Way, Tally> tallies = new LinkedHashMap<>();
    try (Cluster cluster = Cluster.start("scale")) {
      HikariDataSource replicaPool = cluster.replicaPool(POOL);
      replicaPool.setConnectionTimeout(BUDGET.toMillis());
      DataSourceSet pools =
          new DataSourceSet(
              CapturingDataSource.wrap(cluster.trackingSourcePool(16)),
              cluster.plainSourcePool(16),
              replicaPool,
              cluster.source.serverUuid());
      ConsistentReader reader =
          ConsistentReader.builder(replicaPool, pools.sourceReads)
              .maxReplicaReads(POOL)
              .defaults(ReadOptions.defaults().withTimeout(BUDGET))
              .build();
      for (Way way : Way.values()) {
        tallies.put(way, run(way, cluster, pools, reader, clients, seconds, think));
      }
    }
    Files.writeString(
        prefix.resolveSibling(prefix.getFileName() + ".md"),
        table(tallies, clients, seconds, server, think));
    Map<String, long[]> series = new LinkedHashMap<>();
    tallies.forEach((way, tally) -> series.put(way.label, tally.sorted()));
    series.put("the floor (Tidemark's writes)", tallies.get(Way.TIDEMARK).floor);
    Files.writeString(
        prefix.resolveSibling(prefix.getFileName() + ".svg"),
        LatencyChart.svg(
            "Reading back one's own write, "
                + clients
                + " clients, applier held "
                + HELD_MILLIS
                + " ms at a time ("
                + server
                + ")",
            series));
  }

  private static Tally run(
      Way way,
      Cluster cluster,
      DataSourceSet pools,
      ConsistentReader reader,
      int clients,
      int seconds,
      Duration think)
      throws InterruptedException, SQLException {
    Tally tally = new Tally();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean counting = new AtomicBoolean();
    AtomicLong ids = new AtomicLong((long) way.ordinal() << 40);
    Map<Long, Long> executed = new ConcurrentHashMap<>();
    AtomicBoolean watching = new AtomicBoolean(true);
    Thread watcher = watch(cluster, pools.origin, executed, watching);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      threads.add(
          started(
              () -> {
                while (!stop.get()) {
                  client(way, pools, reader, ids.incrementAndGet(), counting.get() ? tally : null);
                  pause(think);
                }
              }));
    }
    HikariPoolMXBean pool = pools.replica.getHikariPoolMXBean();
    Thread applier =
        started(
            () -> {
              while (!stop.get()) {
                cluster.replica.pauseApplier();
                LockSupport.parkNanos(Duration.ofMillis(HELD_MILLIS).toNanos());
                cluster.replica.resumeApplier();
                LockSupport.parkNanos(Duration.ofMillis(HELD_MILLIS).toNanos());
              }
            });
    long begun = System.nanoTime();
    long countFrom = begun + Duration.ofSeconds(WARM_UP_SECONDS).toNanos();
    long end = countFrom + Duration.ofSeconds(seconds).toNanos();
    while (System.nanoTime() < end) {
      if (!counting.get() && System.nanoTime() >= countFrom) {
        counting.set(true);
      }
      if (counting.get()) {
        tally.mostInUse.accumulateAndGet(pool.getActiveConnections(), Math::max);
        tally.mostWaiting.accumulateAndGet(pool.getThreadsAwaitingConnection(), Math::max);
      }
      LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    applier.join();
    cluster.replica.resumeApplier();
    cluster.topology.awaitReplicasCaughtUp(Duration.ofSeconds(60));
    long seenBy = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!tally.seenAll(executed) && System.nanoTime() < seenBy) {
      LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
    }
    watching.set(false);
    watcher.join();
    if (!tally.seenAll(executed)) {
      throw new IllegalStateException("the watcher missed writes the replica has");
    }
    tally.floor(executed);
    return tally;
  }

  /**
   * Notes in {@code executed}, while {@code watching}, when the replica was first seen to have each
   * of {@code origin}'s transactions, by GNO: each wait returns as soon as the replica commits the
   * next one, and says how far it has come.
   */
  private static Thread watch(
      Cluster cluster, String origin, Map<Long, Long> executed, AtomicBoolean watching)
      throws SQLException {
    Connection replica = cluster.connect(cluster.replica);
    long known = Cluster.lastGno(cluster.replica.gtidExecuted(), origin);
    return started(
        () -> {
          try (PreparedStatement wait =
              replica.prepareStatement(
                  "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1), @@GLOBAL.gtid_executed")) {
            long next = known + 1;
            while (watching.get()) {
              wait.setString(1, origin + ":" + next);
              try (ResultSet rs = wait.executeQuery()) {
                rs.next();
                long now = System.nanoTime();
                String text = rs.getString(2);
                GtidSet seen = GtidSet.parse(text);
                // A parallel applier may commit a later transaction before an earlier one.
                for (long gno = next; gno <= Cluster.lastGno(text, origin); gno++) {
                  if (!executed.containsKey(gno)
                      && seen.containsAll(GtidSet.parse(origin + ":" + gno))) {
                    executed.put(gno, now);
                  }
                }
                while (executed.containsKey(next)) {
                  next++;
                }
              }
            }
          } catch (SQLException e) {
            throw new IllegalStateException("the watcher of the replica failed", e);
          }
        });
  }

  /** Pauses between none and twice {@code think}, at random. */
  private static void pause(Duration think) {
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(2 * think.toNanos() + 1));
  }

  private static Thread started(Runnable work) {
    Thread thread = new Thread(work);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** One client's write and its read back, told to {@code tally} when it counts. */
  private static void client(
      Way way, DataSourceSet pools, ConsistentReader reader, long id, @Nullable Tally tally) {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = pools.writes.getConnection()) {
        Cluster.insertRow(c, id);
      }
      long ack = System.nanoTime();
      GtidSet token = binding.context().gtids();
      NodeRole served =
          switch (way) {
            case TIDEMARK -> {
              ReadResult<@Nullable Integer> read = reader.read(c -> Cluster.readRow(c, id));
              yield read.value() == null ? null : read.record().role();
            }
            case PER_READ_WAITS -> waitAndRead(pools, token, id, ack);
            case SOURCE -> fromSource(pools, id);
          };
      if (tally == null) {
        return;
      }
      if (served == null) {
        throw new IllegalStateException("row " + id + " not found after its write");
      }
      tally.sample(
          new Sample(
              Cluster.lastGno(token.toString(), pools.origin), ack, System.nanoTime() - ack));
      (served == NodeRole.REPLICA ? tally.replica : tally.source).incrementAndGet();
    } catch (SQLException | RuntimeException e) {
      if (tally != null) {
        tally.refused.incrementAndGet();
      }
    }
  }

  /**
   * A read whose wait shares nothing: a pool connection of its own, a wait for its own token on it
   * within what is left of the budget, then the row; the source when either runs out.
   */
  private static @Nullable NodeRole waitAndRead(
      DataSourceSet pools, GtidSet token, long id, long begun) throws SQLException {
    try (Connection c = pools.replica.getConnection()) {
      long millis = BUDGET.toMillis() - (System.nanoTime() - begun) / 1_000_000;
      if (millis > 0) {
        try (PreparedStatement wait =
            c.prepareStatement(
                "SELECT /*+ MAX_EXECUTION_TIME("
                    + millis
                    + ") */ WAIT_FOR_EXECUTED_GTID_SET(?, "
                    + (millis + 999) / 1000
                    + ")")) {
          wait.setString(1, token.toString());
          try (ResultSet rs = wait.executeQuery()) {
            if (rs.next() && rs.getInt(1) == 0) {
              return Cluster.readRow(c, id) == null ? null : NodeRole.REPLICA;
            }
          }
        } catch (SQLException e) {
          if (e.getErrorCode() != 3024) {
            throw e;
          }
        }
      }
    } catch (SQLException e) {
      if (!"08001".equals(e.getSQLState()) && !(e instanceof java.sql.SQLTransientException)) {
        throw e;
      }
    }
    return fromSource(pools, id);
  }

  private static @Nullable NodeRole fromSource(DataSourceSet pools, long id) throws SQLException {
    try (Connection c = pools.sourceReads.getConnection()) {
      return Cluster.readRow(c, id) == null ? null : NodeRole.SOURCE;
    }
  }

  private static String table(
      Map<Way, Tally> tallies, int clients, int seconds, String server, Duration think) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Scale run on %s: %d clients, each reading back the row it has just written with the"
                + " token of its own write, then pausing %d ms on average; a replica pool of %d"
                + " connections; the replica's applier held %d ms, freed %d ms, over and over; %d s"
                + " per way of reading back, after %d s not counted; a 1 s budget. The floor: how"
                + " long after each write's acknowledgement the replica had it (the same writes as"
                + " the reads).%n%n",
            server,
            clients,
            think.toMillis(),
            POOL,
            HELD_MILLIS,
            HELD_MILLIS,
            seconds,
            WARM_UP_SECONDS));
    out.append(
        "| reading back | reads | by the replica | by the source | refused | p50 ms | p99 ms |"
            + " max ms | floor p50 / p99 ms | most replica connections in use |"
            + " most threads waiting for one |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    tallies.forEach(
        (way, tally) -> {
          long[] sorted = tally.sorted();
          long reads = tally.replica.get() + tally.source.get() + tally.refused.get();
          out.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %.1f %% | %d | %d | %.1f | %.1f | %.1f | %.1f / %.1f | %d | %d |%n",
                  way.label,
                  reads,
                  reads == 0 ? 0 : 100.0 * tally.replica.get() / reads,
                  tally.source.get(),
                  tally.refused.get(),
                  percentile(sorted, 50),
                  percentile(sorted, 99),
                  sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
                  percentile(tally.floor, 50),
                  percentile(tally.floor, 99),
                  tally.mostInUse.get(),
                  tally.mostWaiting.get()));
        });
    return out.toString();
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
  }
}

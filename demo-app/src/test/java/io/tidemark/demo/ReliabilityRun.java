package io.tidemark.demo;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import io.tidemark.GtidSet;
import io.tidemark.demo.Operation.Kind;
import io.tidemark.dialect.Dialect;
import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.FaultLink.Direction;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import io.tidemark.testkit.redis.RedisServer;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The reliability run: the causal-register workload through the demo's two instances on 1 source +
 * 2 replicas and a persistent Redis, while a fault schedule runs; then every chain is read once
 * more and the whole history checked. Before it, a negative control: the same workload reading the
 * replicas directly while they lag must be caught stale.
 *
 * <p>System properties: {@code reliability.operations} (operations of the main run) and {@code
 * reliability.chains-per-second} (arrival rate; each chain is {@value #WRITES} writes, each
 * followed by two reads), and {@code reliability.automatic} (the instances in the starter's
 * automatic mode, their reads without annotations).
 */
final class ReliabilityRun {

  static final int WRITES = 3;

  /** Two long sessions, one per kind of client, each writing one order this many times. */
  static final int LONG_SESSIONS = 2;

  static final int LONG_SESSION_WRITES = 500;

  /** The demo's read budget; every read must answer within it plus {@link Checker#SLACK}. */
  static final Duration READ_DEADLINE = Duration.ofSeconds(2);

  /** Fault-free load first: the instances' compilers are busiest in their first seconds. */
  static final Duration WARM_UP = Duration.ofSeconds(10);

  static final Duration GAP = Duration.ofMillis(1_500);
  static final Duration TAIL = Duration.ofSeconds(6);
  static final int MAX_REPLICA_READS = 8;
  private static final int MAX_SOURCE_FALLBACKS = 16;
  private static final Path LOG = Path.of("target", "reliability", "demo.log");

  private ReliabilityRun() {}

  /** How much to run. */
  record Settings(int operations, int chainsPerSecond) {

    Settings {
      if (operations < 1 || chainsPerSecond < 1) {
        throw new IllegalArgumentException(
            "operations and chains per second must be positive: "
                + operations
                + ", "
                + chainsPerSecond);
      }
    }

    static Settings fromSystemProperties(int operations, int chainsPerSecond) {
      return new Settings(
          Integer.getInteger("reliability.operations", operations),
          Integer.getInteger("reliability.chains-per-second", chainsPerSecond));
    }

    int chains() {
      int perChain = CausalRegister.operationsPerChain(WRITES);
      return (operations + perChain - 1) / perChain;
    }

    Duration workload() {
      return Duration.ofMillis(chains() * 1_000L / chainsPerSecond);
    }
  }

  /**
   * What the operations that began while one kind of fault was in force did, over all its rounds.
   *
   * @param reads reads begun while it held
   * @param onReplica served by a replica (or the cache)
   * @param onSource served by the source
   * @param refused refused with a reason
   * @param rounds how many times it was applied
   * @param writes writes begun while it held
   * @param refusedWrites of those, the ones refused as the database unavailable (503)
   * @param slowestWrite the longest of those writes took from when it was due, in milliseconds
   */
  record UnderFault(
      long rounds,
      long reads,
      long onReplica,
      long onSource,
      long refused,
      long writes,
      long refusedWrites,
      long slowestWrite) {

    double replicaShare() {
      return reads == 0 ? 0 : (double) onReplica / reads;
    }
  }

  /** What a run found. */
  record Report(
      Settings settings,
      String server,
      Checker.Verdict verdict,
      Checker.Verdict control,
      List<FaultSchedule.Applied> faults,
      Map<String, UnderFault> byFault,
      Duration elapsed,
      long operations,
      long chains,
      double sourceSelectsPerSecond,
      double readsPerSecond,
      long writesAfterFailover,
      List<LongSession> longSessionWrites,
      long cachedReads,
      long cacheFills,
      long jpaReads,
      long globalReads,
      boolean openInView,
      long toldScopeUnrecorded,
      String reads,
      String chart) {

    String table() {
      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              "Reliability run on %s: %d operations (%d chains at %d/s: header, session and"
                  + " GLOBAL clients) in %d s, 1 source + 2 replicas, 2 instances, read budget"
                  + " %d ms, reads by %s%n%n",
              server,
              operations,
              chains,
              settings.chainsPerSecond(),
              elapsed.toSeconds(),
              READ_DEADLINE.toMillis(),
              reads.equals("AutomaticOrderReads")
                  ? "AutomaticOrderReads (the automatic mode, no @ReadYourWrites)"
                  : reads));
      out.append("| check | with Tidemark | control (wait off, replicas lagging) |\n");
      out.append("|---|---:|---:|\n");
      row(out, "acknowledged writes", verdict.writes(), control.writes());
      row(out, "reads served", verdict.reads(), control.reads());
      row(out, "stale reads", verdict.stale(), control.stale());
      row(out, "not found for an acknowledged write", verdict.notFound(), control.notFound());
      row(out, "non-monotonic reads", verdict.nonMonotonic(), control.nonMonotonic());
      row(
          out,
          "reads and writes past deadline + " + Checker.SLACK.toMillis() + " ms",
          verdict.pastDeadline(),
          control.pastDeadline());
      withOnly(
          out,
          "lost writes (failover), reported as TOKEN_NOT_ON_SOURCE",
          verdict.lostWrites() + " (" + verdict.unreportedLostWrites() + " unreported)");
      withOnly(
          out,
          "writes answered as failure that committed (read back on the final source)",
          verdict.committedAnsweredAsFailure());
      withOnly(out, "writes answered as done (2xx) without the row", verdict.doneWithoutResult());
      withOnly(
          out,
          "answers without a token to requests that sent one (but for refusals of it)",
          verdict.tokenDropped());
      withOnly(
          out,
          "writes answered with an unknown outcome (commit never confirmed), committed",
          verdict.unknownOutcomes() + ", " + verdict.unknownCommitted());
      withOnly(
          out,
          "writes acknowledged or of unknown outcome answered without a token that covers them",
          verdict.uncovered());
      withOnly(out, "writes acknowledged after the first failover", writesAfterFailover);
      withOnly(
          out,
          "long sessions (one token across scattered writes), acknowledged writes each",
          longSessionWrites);
      withOnly(
          out,
          "reads through the cache with a token (hits "
              + verdict.served().getOrDefault("CACHE_HIT", 0L)
              + ")",
          cachedReads);
      withOnly(
          out,
          "reads through the cache without a token meanwhile (other clients filling it,"
              + " unchecked)",
          cacheFills);
      withOnly(
          out,
          "JPA reads served (session clients; open-in-view "
              + (openInView ? "on" : "off")
              + ", Boot's default)",
          jpaReads);
      withOnly(out, "GLOBAL reads served (clients with neither token nor scope)", globalReads);
      withOnly(
          out,
          "session clients told their scope missed a write (then sending tokens)",
          toldScopeUnrecorded);
      withOnly(out, "reads refused, by reason", verdict.refusals());
      withOnly(
          out,
          "fallbacks refused at their admission limit (" + MAX_SOURCE_FALLBACKS + " per instance)",
          verdict.refusals().getOrDefault("503 SOURCE_FALLBACK_LIMITED", 0L));
      withOnly(out, "writes refused, by reason", verdict.failedWrites());
      withOnly(out, "reads served, by reason", verdict.served());
      withOnly(
          out, "reads served by the source", String.format("%.1f %%", 100 * verdict.sourceShare()));
      withOnly(
          out,
          "source SELECTs/s before failover (incl. the writes' own), reads/s",
          (Double.isNaN(sourceSelectsPerSecond)
                  ? "-"
                  : String.format("%.0f", sourceSelectsPerSecond))
              + String.format(", %.0f", readsPerSecond));
      out.append("\nLatency from when each operation was due (ms):\n\n");
      out.append("| operation | count | p50 | p90 | p99 | p99.9 | max |\n");
      out.append("|---|---:|---:|---:|---:|---:|---:|\n");
      for (Map.Entry<Kind, Checker.Latency> e : verdict.latency().entrySet()) {
        Checker.Latency l = e.getValue();
        out.append(
            String.format(
                "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                e.getKey().name().toLowerCase(java.util.Locale.ROOT),
                l.count(),
                l.p50(),
                l.p90(),
                l.p99(),
                l.p999(),
                l.max()));
      }
      out.append("\nOperations begun while each fault held, over all its rounds:\n\n");
      out.append(
          "| fault | rounds | reads | served by a replica | by the source | refused | writes |"
              + " writes refused (503) | slowest write (ms) |\n");
      out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      byFault.forEach(
          (fault, under) ->
              out.append(
                  String.format(
                      "| %s | %d | %d | %.1f %% | %d | %d | %d | %d | %d |%n",
                      fault,
                      under.rounds(),
                      under.reads(),
                      100 * under.replicaShare(),
                      under.onSource(),
                      under.refused(),
                      under.writes(),
                      under.refusedWrites(),
                      under.slowestWrite())));
      if (!faults.isEmpty()) {
        out.append(
            String.format(
                "%nThe faults ran one after another in the order of this table, round after round,"
                    + " from %.1f s to %.1f s; the failovers last. The history chart numbers them"
                    + " in this order.%n",
                faults.get(0).at(), faults.get(faults.size() - 1).at()));
      }
      return out.toString();
    }

    private static void row(StringBuilder out, String what, long with, long without) {
      out.append(String.format("| %s | %d | %d |%n", what, with, without));
    }

    /**
     * A row of a check only the run with Tidemark has: {@code with}, and a dash for the control.
     */
    private static void withOnly(StringBuilder out, String what, Object with) {
      out.append(String.format("| %s | %s | - |%n", what, with));
    }

    /** Writes the table to {@code target/reliability/} as {@code name}. */
    /** Writes the table to {@code name} and the history chart beside it, as {@code .svg}. */
    void save(String name) {
      Path file = Path.of("target", "reliability", name);
      try {
        Files.createDirectories(file.getParent());
        Files.writeString(file, table());
        Files.writeString(file.resolveSibling(name.replaceFirst("\\.md$", ".svg")), chart);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  static Report run(Settings settings) {
    return run(
        settings,
        LOG,
        () -> MySqlTopology.builder().replicas(2).start(),
        topology ->
            new Replicas<>(
                topology.replicas().get(0),
                topology.replicas().get(1),
                "applier",
                "receiver (IO thread)",
                "applier held 300 ms, released 50 ms",
                "both appliers paused",
                MySqlNode::pauseApplier,
                MySqlNode::resumeApplier,
                MySqlNode::stopReceiver,
                MySqlNode::startReceiver,
                ReplicationLag::start),
        run -> {
          MySqlTopology topology = run.topology();
          MySqlNode source = topology.source();
          MySqlNode first = run.replicas().first();
          MySqlNode second = run.replicas().second();
          FailoverClock clock = new FailoverClock(() -> comSelect(source));
          FaultSchedule failovers =
              run.failover(
                      "failover to replica2, old source left read-only, after both replicas"
                          + " stopped receiving for 1 s",
                      clock,
                      () -> topology.promote(second, FormerSource.READ_ONLY))
                  .then(
                      "failover to replica1, replica2 (the source) killed, after replica1 stopped"
                          + " receiving for 1 s",
                      first::stopReceiver,
                      () -> topology.promote(first, FormerSource.KILLED),
                      Duration.ofSeconds(1));
          String server = "MySQL " + source.queryString("SELECT VERSION()");
          Ran ran =
              run.drive(
                  source,
                  new FaultSchedule()
                      .then(
                          "replica2 writable 2 s while replicating (read_only not persisted across"
                              + " a restart)",
                          () ->
                              second.execute(
                                  "SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF"),
                          () ->
                              second.execute(
                                  "SET GLOBAL read_only = ON", "SET GLOBAL super_read_only = ON"),
                          Duration.ofSeconds(2)),
                  copies(second),
                  failovers);
          return run.report(
              server,
              ran,
              clock.failover(),
              GtidSet.parse(topology.source().gtidExecuted()),
              () -> topology.source().openConnection(),
              "`" + run.demo().database() + "`.orders");
        });
  }

  /** How a database's replicas lag: held for {@code held}, then let go for {@code released}. */
  interface Lag<N> {
    ReplicationLag start(N replica, Duration held, Duration released);
  }

  /**
   * The two replicas of a run and how the faults hold them, in their database's words: what applies
   * the changes ({@code applier}: applier or replay), what receives them ({@code receiver}), the
   * delay spikes ({@code spikes}) and both appliers paused ({@code bothPaused}).
   */
  record Replicas<N extends DatabaseNode<?>>(
      N first,
      N second,
      String applier,
      String receiver,
      String spikes,
      String bothPaused,
      Consumer<N> pause,
      Consumer<N> resume,
      Consumer<N> stopReceiver,
      Consumer<N> startReceiver,
      Lag<N> lag) {

    List<N> both() {
      return List.of(first, second);
    }

    /** How the network faults hold the first replica while an instance is cut from it. */
    Held held() {
      return new Held(
          "its " + applier + " paused", () -> pause.accept(first), () -> resume.accept(first));
    }

    /**
     * The faults that leave the topology as it was, one after another: {@code writable} after the
     * second replica is killed and {@code copies} after Redis is.
     */
    FaultSchedule cycle(RedisServer redis, FaultSchedule writable, FaultSchedule copies) {
      AtomicReference<@Nullable ReplicationLag> spiking = new AtomicReference<>();
      return new FaultSchedule()
          .then(
              first.name() + " " + applier + " paused 2.5 s",
              () -> pause.accept(first),
              () -> resume.accept(first),
              ms(2_500))
          .then(
              second.name() + " " + receiver + " stopped 1 s",
              () -> stopReceiver.accept(second),
              () -> startReceiver.accept(second),
              Duration.ofSeconds(1))
          .then(
              first.name() + " delay spikes 3 s (" + spikes + ")",
              () -> spiking.set(lag.start(first, ms(300), ms(50))),
              () -> {
                ReplicationLag spikesLag = spiking.getAndSet(null);
                if (spikesLag != null) {
                  spikesLag.close();
                }
              },
              Duration.ofSeconds(3))
          .then(first.name() + " frozen 1.5 s", first::freeze, first::thaw, ms(1_500))
          .then(
              second.name() + " killed, restarted after 2 s",
              second::kill,
              second::restart,
              Duration.ofSeconds(2))
          .then(writable)
          .then(
              "Redis killed, restarted after 2 s",
              redis::kill,
              redis::restart,
              Duration.ofSeconds(2))
          .then(copies)
          .then(
              "replica pools exhausted 2 s ("
                  + bothPaused
                  + ", more reads waiting than "
                  + MAX_REPLICA_READS
                  + " replica connections)",
              () -> both().forEach(pause),
              () -> both().forEach(resume),
              Duration.ofSeconds(2));
    }
  }

  /**
   * A run's servers, started, with the control's verdict and when the run began: what a run on any
   * database does with them.
   */
  record Started<T, N extends DatabaseNode<?>>(
      Settings settings,
      T topology,
      Replicas<N> replicas,
      RedisServer redis,
      Demo demo,
      Checker.Verdict control,
      long begun) {

    /**
     * The first failover, {@code name}: both replicas stop receiving for 1 s, then {@code promote}
     * promotes one, timed by {@code clock}.
     */
    FaultSchedule failover(String name, FailoverClock clock, Runnable promote) {
      return new FaultSchedule()
          .then(
              name,
              () -> {
                clock.began();
                replicas.both().forEach(replicas.stopReceiver());
              },
              () -> {
                promote.run();
                clock.promoted();
              },
              Duration.ofSeconds(1));
    }

    /**
     * Runs the workload while the replicas' {@link Replicas#cycle cycle} (with {@code writable} and
     * {@code copies}) and the network faults between an instance and {@code source} or a replica
     * repeat, then {@code failovers}.
     */
    Ran drive(N source, FaultSchedule writable, FaultSchedule copies, FaultSchedule failovers) {
      N first = replicas.first();
      N second = replicas.second();
      FaultSchedule cycle =
          replicas
              .cycle(redis, writable, copies)
              .then(
                  network(
                      new Linked(source.name(), source::link),
                      new Linked(first.name(), first::link),
                      new Linked(second.name(), second::link),
                      replicas.held(),
                      redis,
                      demo));
      return ReliabilityRun.drive(settings, demo, schedule(settings, cycle, failovers));
    }

    /** {@link ReliabilityRun#report Reports} the run on {@code server}. */
    Report report(
        String server,
        Ran ran,
        Failover failover,
        GtidSet survived,
        CausalRegister.Source source,
        String table) {
      return ReliabilityRun.report(
          settings, server, control, ran, failover, survived, source, table, demo, begun);
    }

    /** {@link #report Reports} the run, the final source read through {@code source}. */
    Report report(String server, Ran ran, Failover failover, CausalRegister.Source source) {
      return report(server, ran, failover, executed(source), source, "orders");
    }

    /**
     * Connections to the demo's database on the node {@code node} names when each is opened, so
     * that the report reads whichever node the failovers left taking writes.
     */
    CausalRegister.Source connecting(Supplier<? extends DatabaseNode<?>> node) {
      return () -> {
        DatabaseNode<?> now = node.get();
        return DriverManager.getConnection(
            now.jdbcUrl(demo.database()), now.user(), now.password());
      };
    }
  }

  /**
   * Starts the topology by {@code start}, a persistent Redis and the demo's two instances (their
   * logs to {@code log}), runs the control on the topology's {@code replicas} and warms the
   * instances up; then {@code run} runs, and everything is stopped.
   */
  static <T extends ReplicatedTopology<N>, N extends DatabaseNode<?>> Report run(
      Settings settings,
      Path log,
      Supplier<T> start,
      Function<T, Replicas<N>> replicas,
      Function<Started<T, N>, Report> run) {
    long begun = System.nanoTime();
    try (T topology = start.get();
        RedisServer redis = RedisServer.startPersistent();
        Demo demo =
            Demo.startLinked(topology, redis, instanceSettings(log), secondInstanceSettings())) {
      Replicas<N> two = replicas.apply(topology);
      Checker.Verdict control =
          control(demo, two.both(), (r, held) -> two.lag().start(r, held, ms(50)));
      warmUp(demo);
      return run.apply(new Started<>(settings, topology, two, redis, demo, control, begun));
    }
  }

  /**
   * When the first failover began and its promotion ended, and the SELECTs the source ran from when
   * this was made to when the failover began (NaN where {@code selects} is null).
   */
  static final class FailoverClock {

    private final @Nullable LongSupplier selects;
    private final long selectsBefore;
    private final AtomicLong began = new AtomicLong();
    private final AtomicLong promoted = new AtomicLong();
    private final AtomicLong selectsAtFailover = new AtomicLong();

    FailoverClock(@Nullable LongSupplier selects) {
      this.selects = selects;
      this.selectsBefore = selects == null ? 0 : selects.getAsLong();
    }

    void began() {
      began.set(System.nanoTime());
      if (selects != null) {
        selectsAtFailover.set(selects.getAsLong());
      }
    }

    void promoted() {
      promoted.set(System.nanoTime());
    }

    Failover failover() {
      return new Failover(
          began.get(),
          promoted.get(),
          selects == null ? Double.NaN : selectsAtFailover.get() - selectsBefore);
    }
  }

  /**
   * The schedule of a run: {@code cycle} as many times as the workload leaves room for, then {@code
   * failovers}.
   */
  static FaultSchedule schedule(Settings settings, FaultSchedule cycle, FaultSchedule failovers) {
    Duration room =
        settings.workload().minus(WARM_UP).minus(TAIL).minus(failovers.length(Duration.ZERO, GAP));
    long cycles = Math.max(1, room.toMillis() / cycle.length(Duration.ZERO, GAP).toMillis());
    FaultSchedule schedule = new FaultSchedule();
    for (int i = 0; i < cycles; i++) {
      schedule.then(cycle);
    }
    return schedule.then(failovers);
  }

  /** What the workload did while the faults ran. */
  record Ran(
      CausalRegister register,
      List<FaultSchedule.Applied> applied,
      List<Operation> history,
      long started) {}

  /** Runs the workload through {@code demo} while {@code schedule} applies its faults. */
  static Ran drive(Settings settings, Demo demo, FaultSchedule schedule) {
    CausalRegister register =
        new CausalRegister(demo.firstUrl(), demo.secondUrl(), true, "run")
            .withLongSessions(LONG_SESSIONS, LONG_SESSION_WRITES);
    long started = System.nanoTime();
    var faults = schedule.start(WARM_UP, GAP);
    // Arrivals go on past the last fault, so the final topology is read under load too.
    var faultsAndTail =
        faults.thenRunAsync(
            () -> {}, CompletableFuture.delayedExecutor(TAIL.toMillis(), MILLISECONDS));
    register.run(settings.chains(), WRITES, 1_000_000L / settings.chainsPerSecond(), faultsAndTail);
    List<FaultSchedule.Applied> applied = faults.join();
    return new Ran(register, applied, register.audit(), started);
  }

  /**
   * When the first failover began and its promotion ended ({@link System#nanoTime}), and the
   * SELECTs the source ran before it (NaN where not counted).
   */
  record Failover(long began, long promoted, double sourceSelects) {}

  /**
   * Checks the history of {@code ran} and reports: {@code survived} is what the final source holds,
   * {@code source} connects to it to read back the writes answered as failures in {@code table}.
   */
  static Report report(
      Settings settings,
      String server,
      Checker.Verdict control,
      Ran ran,
      Failover failover,
      GtidSet survived,
      CausalRegister.Source source,
      String table,
      Demo demo,
      long begun) {
    List<Operation> history = ran.history();
    Checker.Verdict verdict =
        Checker.check(
            history,
            READ_DEADLINE,
            outcomes(demo.codec(), survived, ran.register().committedOn(source, table)));
    long failoverAt = failover.began();
    double beforeFailover = (failoverAt - ran.started()) / 1e9;
    long readsBeforeFailover =
        history.stream().filter(op -> op.kind() == Kind.READ && op.started() < failoverAt).count();
    return new Report(
        settings,
        server,
        verdict,
        control,
        ran.applied(),
        byFault(history, ran.applied()),
        Duration.ofNanos(System.nanoTime() - begun),
        history.size(),
        history.stream().mapToLong(Operation::chain).distinct().count(),
        failover.sourceSelects() / beforeFailover,
        readsBeforeFailover / beforeFailover,
        history.stream()
            .filter(op -> op.acknowledged() && op.started() > failover.promoted())
            .count(),
        longSessionWrites(history, ran.applied()),
        history.stream().filter(CausalRegister::cachedRead).count(),
        ran.register().cacheFills(),
        history.stream()
            .filter(op -> op.client() == Operation.Client.SESSION && op.servedRead())
            .count(),
        history.stream()
            .filter(op -> op.client() == Operation.Client.GLOBAL && op.servedRead())
            .count(),
        demo.openInView(),
        ran.register().toldScopeUnrecorded(),
        demo.reads(),
        HistoryChart.svg(
            "Reliability run on " + server + ": slowest operations and refusals under the faults",
            history,
            ran.applied(),
            ran.started(),
            READ_DEADLINE));
  }

  /** The operations begun while each kind of fault held, in the order the faults first came. */
  static Map<String, UnderFault> byFault(
      List<Operation> history, List<FaultSchedule.Applied> applied) {
    Map<String, long[]> counts = new LinkedHashMap<>();
    for (FaultSchedule.Applied fault : applied) {
      long[] count = counts.computeIfAbsent(fault.name(), name -> new long[8]);
      count[0]++;
      for (Operation op : history) {
        if (op.started() < fault.inflicted() || op.started() >= fault.undone()) {
          continue;
        }
        if (op.kind() == Kind.WRITE) {
          count[5]++;
          count[6] += op.status() == 503 ? 1 : 0;
          count[7] = Math.max(count[7], op.latencyNanos() / 1_000_000);
          continue;
        }
        count[1]++;
        if (!op.servedRead()) {
          count[4]++;
        } else if (op.reason().startsWith("SOURCE_")) {
          count[3]++;
        } else {
          count[2]++;
        }
      }
    }
    Map<String, UnderFault> byFault = new LinkedHashMap<>();
    counts.forEach(
        (name, c) ->
            byFault.put(name, new UnderFault(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])));
    return byFault;
  }

  /**
   * Each long session's acknowledged writes, and for one that ended short, the answer that ended it
   * and the fault that held then (or had just been undone: a failover's refusals go on until the
   * instances see the promoted source).
   */
  static List<LongSession> longSessionWrites(
      List<Operation> history, List<FaultSchedule.Applied> faults) {
    Map<Long, List<Operation>> writes =
        history.stream()
            .filter(op -> CausalRegister.isLongSession(op.chain()) && op.kind() == Kind.WRITE)
            .collect(
                java.util.stream.Collectors.groupingBy(
                    Operation::chain, TreeMap::new, java.util.stream.Collectors.toList()));
    long after = TimeUnit.SECONDS.toNanos(2);
    List<LongSession> sessions = new ArrayList<>();
    for (List<Operation> session : writes.values()) {
      long acknowledged = session.stream().filter(Operation::acknowledged).count();
      Operation last = session.stream().max(Comparator.comparingInt(Operation::step)).orElseThrow();
      // The fault that held when it began, else the last one undone just before: the next fault
      // may begin within the 2 s after one is undone.
      String fault =
          last.acknowledged()
              ? null
              : faults.stream()
                  .filter(f -> f.inflicted() <= last.started() && last.started() <= f.undone())
                  .findFirst()
                  .or(
                      () ->
                          faults.stream()
                              .filter(
                                  f ->
                                      f.undone() < last.started()
                                          && last.started() <= f.undone() + after)
                              .reduce((earlier, later) -> later))
                  .map(FaultSchedule.Applied::name)
                  .orElse(null);
      String endedBy =
          last.acknowledged()
              ? ""
              : last.status()
                  + " "
                  + last.reason()
                  + " during "
                  + (fault == null ? "no fault" : fault);
      sessions.add(new LongSession(acknowledged, endedBy, fault != null));
    }
    return sessions;
  }

  /**
   * A long session's acknowledged writes, and what ended it when it ended short: a session ends at
   * its first write not acknowledged, so that no later write of its own hides whether that one
   * committed.
   */
  record LongSession(long writes, String endedBy, boolean endedByFault) {
    @Override
    public String toString() {
      return endedBy.isEmpty() ? Long.toString(writes) : writes + " (ended by " + endedBy + ")";
    }
  }

  /**
   * The faults of MySQL's cycle after Redis's: {@code second} copied with its applier held, and
   * restored from that copy.
   */
  private static FaultSchedule copies(MySqlNode second) {
    AtomicReference<MySqlNode.@Nullable DataSnapshot> snapshot = new AtomicReference<>();
    return new FaultSchedule()
        .then(
            "replica2 copied (killed, copied, restarted) with its applier held, 2 s of writes",
            () -> snapshot.set(second.snapshotWithApplierHeld()),
            () -> {},
            Duration.ofSeconds(2))
        .then(
            "replica2 restored from that copy (same server_uuid, 2 s behind), its applier held 1 s",
            () -> second.restore(Objects.requireNonNull(snapshot.getAndSet(null))),
            () -> second.delayApplier(Duration.ZERO),
            Duration.ofSeconds(1));
  }

  /** A server as the network faults see it: its name, and the instances' links to it. */
  record Linked(String name, Function<String, FaultLink> link) {}

  /** How a replica's replication is held while an instance is cut from it, and said so. */
  record Held(String what, Runnable hold, Runnable release) {}

  /**
   * Faults of the network between one instance and one server, made by the links each instance
   * reaches the servers through ({@link Demo#startLinked}), and a drifting instance clock.
   */
  static FaultSchedule network(
      Linked source, Linked first, Linked second, Held firstHeld, RedisServer redis, Demo demo) {
    AtomicReference<@Nullable Repeated> resets = new AtomicReference<>();
    return new FaultSchedule()
        .then(
            "instance1 cut from "
                + first.name()
                + " 2 s while reads wait on it ("
                + firstHeld.what()
                + ")",
            () -> {
              firstHeld.hold().run();
              first.link().apply(Demo.FIRST).partition();
            },
            () -> {
              first.link().apply(Demo.FIRST).heal();
              firstHeld.release().run();
            },
            Duration.ofSeconds(2))
        .then(
            "instance1 cut from the "
                + source.name()
                + " during commits: answers dropped 1 s, then its connections reset (outcomes"
                + " unknown)",
            () -> source.link().apply(Demo.FIRST).drop(Direction.DOWNSTREAM),
            () -> source.link().apply(Demo.FIRST).resetConnections().heal(),
            Duration.ofSeconds(1))
        .then(
            "instance2 cut from Redis 2 s (scopes unknown)",
            () -> redis.link(Demo.SECOND).partition(),
            () -> redis.link(Demo.SECOND).heal(),
            Duration.ofSeconds(2))
        .then(
            first.name() + " answers 200 ms late (jitter 50 ms) to both instances 3 s",
            () -> {
              for (String instance : List.of(Demo.FIRST, Demo.SECOND)) {
                first.link().apply(instance).latency(Direction.DOWNSTREAM, ms(200), ms(50));
              }
            },
            () -> {
              first.link().apply(Demo.FIRST).heal();
              first.link().apply(Demo.SECOND).heal();
            },
            Duration.ofSeconds(3))
        .then(
            second.name()
                + " black-holed for both instances 2 s (bytes held, connections accepted)",
            () -> {
              second.link().apply(Demo.FIRST).blackHole(Direction.BOTH);
              second.link().apply(Demo.SECOND).blackHole(Direction.BOTH);
            },
            () -> {
              second.link().apply(Demo.FIRST).heal();
              second.link().apply(Demo.SECOND).heal();
            },
            Duration.ofSeconds(2))
        .then(
            "instance1's connections to "
                + first.name()
                + " and the "
                + source.name()
                + " reset every 250 ms for 2 s",
            () ->
                resets.set(
                    Repeated.every(
                        ms(250),
                        "connection-resets",
                        () -> {
                          first.link().apply(Demo.FIRST).resetConnections();
                          source.link().apply(Demo.FIRST).resetConnections();
                        })),
            () -> Objects.requireNonNull(resets.getAndSet(null)).close(),
            Duration.ofSeconds(2))
        .then(
            "instance2's clock 40 s ahead 2 s (past the 30 s skew: its tokens from the future)",
            () -> demo.tokenClock(Demo.SECOND).skew(Duration.ofSeconds(40)),
            () -> demo.tokenClock(Demo.SECOND).skew(Duration.ZERO),
            Duration.ofSeconds(2));
  }

  /**
   * Whether the instances read in the starter's automatic mode, with no {@code @ReadYourWrites} at
   * all (system property {@code reliability.automatic}).
   */
  static final boolean AUTOMATIC = Boolean.getBoolean("reliability.automatic");

  /** The settings of the instances of a run, their logs written to {@code log}. */
  static Map<String, Object> instanceSettings(Path log) {
    Map<String, Object> settings = new TreeMap<>(basicSettings(log));
    if (AUTOMATIC) {
      settings.putAll(AUTOMATIC_MODE);
    }
    return settings;
  }

  /**
   * The settings of the second instance alone: it reads in the automatic mode, the first through
   * {@code @ReadYourWrites}, so that every run has both in the mix (with {@link #AUTOMATIC}, both
   * instances do already).
   */
  static Map<String, Object> secondInstanceSettings() {
    return AUTOMATIC ? Map.of() : AUTOMATIC_MODE;
  }

  private static final Map<String, Object> AUTOMATIC_MODE =
      Map.of("tidemark.read.automatic", "true", "demo.reads", "automatic");

  private static Map<String, Object> basicSettings(Path log) {
    return Map.of(
        "tidemark.read.timeout",
        READ_DEADLINE.toMillis() + "ms",
        // The deadline is the request's: a scope lookup before the read spends it too.
        "tidemark.web.request-timeout",
        READ_DEADLINE.toMillis() + "ms",
        "tidemark.read.max-replica-reads",
        MAX_REPLICA_READS,
        "tidemark.read.max-source-fallbacks",
        MAX_SOURCE_FALLBACKS,
        // The servers' logs go to a file, kept for reading after a failure; the console shows
        // the report.
        "logging.file.name",
        log.toString(),
        "logging.threshold.console",
        "OFF");
  }

  /**
   * The workload with Tidemark on, its answers not checked: Hibernate interprets a repository's
   * query on its first call, and on 2 cores the first session reads of a cold instance, a score of
   * them compiling the same query at once, answered 2 to 4 s late (the application starting, not
   * the read path).
   */
  static void warmUp(Demo demo) {
    new CausalRegister(demo.firstUrl(), demo.secondUrl(), true, "warm-up").run(20, WRITES, 50_000);
  }

  /**
   * The workload reading the replicas directly while each lags by {@code lag}: it must be caught
   * stale.
   */
  static <N> Checker.Verdict control(
      Demo demo, List<N> replicas, BiFunction<N, Duration, ReplicationLag> lag) {
    List<ReplicationLag> lags = new ArrayList<>();
    try {
      for (N replica : replicas) {
        lags.add(lag.apply(replica, ms(300)));
      }
      List<Operation> history =
          new CausalRegister(demo.firstUrl(), demo.secondUrl(), false, "control")
              .run(40, WRITES, 100_000);
      return Checker.check(history, READ_DEADLINE, Checker.Outcomes.nothingLost());
    } finally {
      lags.forEach(ReplicationLag::close);
    }
  }

  /**
   * What became of the writes: a write's own GTIDs are what its answer's token adds to the one it
   * sent; it is lost when the final source lacks them.
   */
  static Checker.Outcomes outcomes(
      TokenCodec codec, GtidSet survived, Predicate<Operation> committed) {
    Function<Operation, GtidSet> own =
        write -> gtids(token(codec, write.returned())).subtract(gtids(token(codec, write.sent())));
    return new Checker.Outcomes(
        write -> !survived.containsAll(own.apply(write)),
        committed,
        write -> {
          Optional<ConsistencyToken> returned = token(codec, write.returned());
          return returned.isPresent()
              && (returned.get().requiresSource() || !own.apply(write).isEmpty());
        });
  }

  private static Optional<ConsistencyToken> token(TokenCodec codec, @Nullable String header) {
    return header == null ? Optional.empty() : codec.verify(codec.parseHeader(header), "orders");
  }

  private static GtidSet gtids(Optional<ConsistencyToken> token) {
    return token.map(ConsistencyToken::gtids).orElse(GtidSet.EMPTY);
  }

  /**
   * What the final source holds, as Tidemark's dialect reads it: on PostgreSQL its earlier
   * timelines up to their switch points included, on MariaDB what every server of each domain
   * wrote, as far as the source applied it.
   */
  static GtidSet executed(CausalRegister.Source source) {
    try (Connection c = source.connect()) {
      return Dialect.of(c).executed(c);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the final source's position", e);
    }
  }

  private static long comSelect(MySqlNode node) {
    try (Connection c = node.openConnection();
        Statement s = c.createStatement();
        ResultSet status = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_select'")) {
      if (!status.next()) {
        throw new IllegalStateException(node + " has no Com_select status");
      }
      return status.getLong(2);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read Com_select of " + node, e);
    }
  }

  static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}

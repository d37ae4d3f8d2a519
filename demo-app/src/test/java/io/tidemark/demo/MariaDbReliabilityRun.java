package io.tidemark.demo;

import static io.tidemark.demo.ReliabilityRun.ms;

import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The reliability run on MariaDB: the same workload, instances and checker as {@link
 * ReliabilityRun}, on a source and two read-only replicas replicating by GTID ({@code
 * gtid_strict_mode} on), the instances reaching them through MariaDB Connector/J ({@code
 * jdbc:mariadb:}), under the faults a replica has (applier paused, receiver stopped, delay spikes,
 * frozen, killed, left writable), Redis killed, exhausted replica pools, the network faults of
 * MySQL's run between one instance and one server and a drifting clock, and a failover with the
 * source killed, after which the new source numbers its writes as the lost ones were numbered.
 */
final class MariaDbReliabilityRun {

  private static final Path LOG = Path.of("target", "reliability", "demo-mariadb.log");

  private MariaDbReliabilityRun() {}

  static ReliabilityRun.Report run(ReliabilityRun.Settings settings) {
    long begun = System.nanoTime();
    try (MariaDbTopology topology = MariaDbTopology.builder().replicas(2).start();
        RedisServer redis = RedisServer.startPersistent();
        Demo demo =
            Demo.startLinked(
                topology,
                redis,
                ReliabilityRun.instanceSettings(LOG),
                ReliabilityRun.secondInstanceSettings())) {
      Checker.Verdict control =
          ReliabilityRun.control(
              demo, topology.replicas(), (r, held) -> ReplicationLag.start(r, held, ms(50)));
      ReliabilityRun.warmUp(demo);
      MariaDbNode source = topology.source();
      MariaDbNode first = topology.replicas().get(0);
      MariaDbNode second = topology.replicas().get(1);
      String server = "MariaDB " + source.version().replaceFirst("-log$", "");
      long selectsBefore = comSelect(source);
      AtomicLong selectsAtFailover = new AtomicLong();
      AtomicLong failoverAt = new AtomicLong();
      AtomicLong promotedAt = new AtomicLong();
      FaultSchedule failover =
          new FaultSchedule()
              .then(
                  "failover to replica2, the source killed, after both replicas stopped"
                      + " receiving for 1 s",
                  () -> {
                    failoverAt.set(System.nanoTime());
                    selectsAtFailover.set(comSelect(source));
                    first.stopReceiver();
                    second.stopReceiver();
                  },
                  () -> {
                    topology.promote(second);
                    promotedAt.set(System.nanoTime());
                  },
                  Duration.ofSeconds(1));
      ReliabilityRun.Ran ran =
          ReliabilityRun.drive(
              settings,
              demo,
              ReliabilityRun.schedule(
                  settings,
                  cycle(first, second, redis)
                      .then(
                          ReliabilityRun.network(
                              new ReliabilityRun.Linked(source.name(), source::link),
                              new ReliabilityRun.Linked(first.name(), first::link),
                              new ReliabilityRun.Linked(second.name(), second::link),
                              new ReliabilityRun.Held(
                                  "its applier paused", first::pauseApplier, first::resumeApplier),
                              redis,
                              demo)),
                  failover));
      CausalRegister.Source finalSource =
          () -> {
            MariaDbNode now = topology.source();
            return DriverManager.getConnection(
                now.jdbcUrl(demo.database()), now.user(), now.password());
          };
      return ReliabilityRun.report(
          settings,
          server,
          control,
          ran,
          new ReliabilityRun.Failover(
              failoverAt.get(), promotedAt.get(), selectsAtFailover.get() - selectsBefore),
          ReliabilityRun.executed(finalSource),
          finalSource,
          "orders",
          demo,
          begun);
    }
  }

  /** The faults that leave the topology as it was, one after another. */
  private static FaultSchedule cycle(MariaDbNode first, MariaDbNode second, RedisServer redis) {
    AtomicReference<@Nullable ReplicationLag> spikes = new AtomicReference<>();
    return new FaultSchedule()
        .then("replica1 applier paused 2.5 s", first::pauseApplier, first::resumeApplier, ms(2_500))
        .then(
            "replica2 receiver (IO thread) stopped 1 s",
            second::stopReceiver,
            second::startReceiver,
            Duration.ofSeconds(1))
        .then(
            "replica1 delay spikes 3 s (applier paused 300 ms, resumed 50 ms)",
            () -> spikes.set(ReplicationLag.start(first, ms(300), ms(50))),
            () -> {
              ReplicationLag lag = spikes.getAndSet(null);
              if (lag != null) {
                lag.close();
              }
            },
            Duration.ofSeconds(3))
        .then("replica1 frozen 1.5 s", first::freeze, first::thaw, ms(1_500))
        .then(
            "replica2 killed, restarted after 2 s",
            second::kill,
            second::restart,
            Duration.ofSeconds(2))
        .then(
            "replica2 writable 2 s while replicating (read_only off)",
            () -> second.execute("SET GLOBAL read_only = OFF"),
            () -> second.execute("SET GLOBAL read_only = ON"),
            Duration.ofSeconds(2))
        .then(
            "Redis killed, restarted after 2 s", redis::kill, redis::restart, Duration.ofSeconds(2))
        .then(
            "replica pools exhausted 2 s (both appliers paused, more reads waiting than "
                + ReliabilityRun.MAX_REPLICA_READS
                + " replica connections)",
            () -> {
              first.pauseApplier();
              second.pauseApplier();
            },
            () -> {
              first.resumeApplier();
              second.resumeApplier();
            },
            Duration.ofSeconds(2));
  }

  /** The SELECTs the server has run ({@code Com_select}). */
  private static long comSelect(MariaDbNode node) {
    String selects =
        node.queryString(
            "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                + " WHERE VARIABLE_NAME = 'COM_SELECT'");
    if (selects == null) {
      throw new IllegalStateException(node + " has no Com_select status");
    }
    return Long.parseLong(selects);
  }
}

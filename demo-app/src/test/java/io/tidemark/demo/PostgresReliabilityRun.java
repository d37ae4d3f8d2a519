package io.tidemark.demo;

import static io.tidemark.demo.ReliabilityRun.ms;

import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The reliability run on PostgreSQL: the same workload, instances and checker as {@link
 * ReliabilityRun}, on a primary and two hot standbys, one of which must have flushed each commit
 * before the primary shows it (synchronous replication: a standby may show a commit the primary
 * still hides), under the faults a standby has (replay paused, receiver stopped, frozen, killed),
 * Redis killed, exhausted replica pools, the network faults of MySQL's run between one instance and
 * one server, a drifting clock, and a failover with the primary killed.
 */
final class PostgresReliabilityRun {

  private static final Path LOG = Path.of("target", "reliability", "demo-postgres.log");

  private PostgresReliabilityRun() {}

  static ReliabilityRun.Report run(ReliabilityRun.Settings settings) {
    long begun = System.nanoTime();
    try (PostgresTopology topology =
            PostgresTopology.builder().standbys(2).synchronousStandbys(1).start();
        RedisServer redis = RedisServer.startPersistent();
        Demo demo =
            Demo.startLinked(
                topology,
                redis,
                ReliabilityRun.instanceSettings(LOG),
                ReliabilityRun.secondInstanceSettings())) {
      Checker.Verdict control =
          ReliabilityRun.control(
              demo, topology.standbys(), (s, held) -> ReplicationLag.start(s, held, ms(50)));
      ReliabilityRun.warmUp(demo);
      PostgresNode first = topology.standbys().get(0);
      PostgresNode second = topology.standbys().get(1);
      AtomicLong failoverAt = new AtomicLong();
      AtomicLong promotedAt = new AtomicLong();
      FaultSchedule failover =
          new FaultSchedule()
              .then(
                  "failover to standby2, the primary killed, after both standbys stopped"
                      + " receiving for 1 s",
                  () -> {
                    failoverAt.set(System.nanoTime());
                    first.stopReceiver();
                    second.stopReceiver();
                  },
                  () -> {
                    topology.promote(second);
                    promotedAt.set(System.nanoTime());
                  },
                  Duration.ofSeconds(1));
      String server =
          "PostgreSQL "
              + topology.primary().queryString("SHOW server_version")
              + " (synchronous_standby_names '"
              + topology.primary().queryString("SHOW synchronous_standby_names")
              + "')";
      ReliabilityRun.Ran ran =
          ReliabilityRun.drive(
              settings,
              demo,
              ReliabilityRun.schedule(
                  settings,
                  cycle(first, second, redis)
                      .then(
                          ReliabilityRun.network(
                              new ReliabilityRun.Linked(
                                  topology.primary().name(), topology.primary()::link),
                              new ReliabilityRun.Linked(first.name(), first::link),
                              new ReliabilityRun.Linked(second.name(), second::link),
                              new ReliabilityRun.Held(
                                  "its replay paused", first::pauseReplay, first::resumeReplay),
                              redis,
                              demo)),
                  failover));
      PostgresNode primary = topology.primary();
      CausalRegister.Source source =
          () ->
              DriverManager.getConnection(
                  primary.jdbcUrl(demo.database()), primary.user(), primary.password());
      return ReliabilityRun.report(
          settings,
          server,
          control,
          ran,
          new ReliabilityRun.Failover(failoverAt.get(), promotedAt.get(), Double.NaN),
          ReliabilityRun.executed(source),
          source,
          "orders",
          demo,
          begun);
    }
  }

  /** The faults that leave the topology as it was, one after another. */
  private static FaultSchedule cycle(PostgresNode first, PostgresNode second, RedisServer redis) {
    AtomicReference<@Nullable ReplicationLag> spikes = new AtomicReference<>();
    return new FaultSchedule()
        .then("standby1 replay paused 2.5 s", first::pauseReplay, first::resumeReplay, ms(2_500))
        .then(
            "standby2 receiver stopped 1 s",
            second::stopReceiver,
            second::startReceiver,
            Duration.ofSeconds(1))
        .then(
            "standby1 delay spikes 3 s (replay paused 300 ms, resumed 50 ms)",
            () -> spikes.set(ReplicationLag.start(first, ms(300), ms(50))),
            () -> {
              ReplicationLag lag = spikes.getAndSet(null);
              if (lag != null) {
                lag.close();
              }
            },
            Duration.ofSeconds(3))
        .then("standby1 frozen 1.5 s", first::freeze, first::thaw, ms(1_500))
        .then(
            "standby2 killed, restarted after 2 s",
            second::kill,
            second::restart,
            Duration.ofSeconds(2))
        .then(
            "Redis killed, restarted after 2 s", redis::kill, redis::restart, Duration.ofSeconds(2))
        .then(
            "replica pools exhausted 2 s (both standbys' replay paused, more reads waiting than "
                + ReliabilityRun.MAX_REPLICA_READS
                + " replica connections)",
            () -> {
              first.pauseReplay();
              second.pauseReplay();
            },
            () -> {
              first.resumeReplay();
              second.resumeReplay();
            },
            Duration.ofSeconds(2));
  }
}

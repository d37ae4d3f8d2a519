package io.tidemark.demo;

import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.nio.file.Path;

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
    return ReliabilityRun.run(
        settings,
        LOG,
        () -> PostgresTopology.builder().standbys(2).synchronousStandbys(1).start(),
        topology ->
            new ReliabilityRun.Replicas<>(
                topology.standbys().get(0),
                topology.standbys().get(1),
                "replay",
                "receiver",
                "replay paused 300 ms, resumed 50 ms",
                "both standbys' replay paused",
                PostgresNode::pauseReplay,
                PostgresNode::resumeReplay,
                PostgresNode::stopReceiver,
                PostgresNode::startReceiver,
                ReplicationLag::start),
        run -> {
          PostgresTopology topology = run.topology();
          ReliabilityRun.FailoverClock clock = new ReliabilityRun.FailoverClock(null);
          FaultSchedule failover =
              run.failover(
                  "failover to standby2, the primary killed, after both standbys stopped"
                      + " receiving for 1 s",
                  clock,
                  () -> topology.promote(run.replicas().second()));
          String server =
              "PostgreSQL "
                  + topology.primary().queryString("SHOW server_version")
                  + " (synchronous_standby_names '"
                  + topology.primary().queryString("SHOW synchronous_standby_names")
                  + "')";
          ReliabilityRun.Ran ran =
              run.drive(topology.primary(), new FaultSchedule(), new FaultSchedule(), failover);
          return run.report(server, ran, clock.failover(), run.connecting(topology::primary));
        });
  }
}

package io.tidemark.demo;

import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.nio.file.Path;
import java.time.Duration;

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
    return ReliabilityRun.run(
        settings,
        LOG,
        () -> MariaDbTopology.builder().replicas(2).start(),
        topology ->
            new ReliabilityRun.Replicas<>(
                topology.replicas().get(0),
                topology.replicas().get(1),
                "applier",
                "receiver (IO thread)",
                "applier paused 300 ms, resumed 50 ms",
                "both appliers paused",
                MariaDbNode::pauseApplier,
                MariaDbNode::resumeApplier,
                MariaDbNode::stopReceiver,
                MariaDbNode::startReceiver,
                ReplicationLag::start),
        run -> {
          MariaDbTopology topology = run.topology();
          MariaDbNode source = topology.source();
          MariaDbNode second = run.replicas().second();
          String server = "MariaDB " + source.version().replaceFirst("-log$", "");
          ReliabilityRun.FailoverClock clock =
              new ReliabilityRun.FailoverClock(() -> comSelect(source));
          ReliabilityRun.Ran ran =
              run.drive(
                  source,
                  new FaultSchedule()
                      .then(
                          "replica2 writable 2 s while replicating (read_only off)",
                          () -> second.execute("SET GLOBAL read_only = OFF"),
                          () -> second.execute("SET GLOBAL read_only = ON"),
                          Duration.ofSeconds(2)),
                  new FaultSchedule(),
                  run.failover(
                      "failover to replica2, the source killed, after both replicas stopped"
                          + " receiving for 1 s",
                      clock,
                      () -> topology.promote(second)));
          return run.report(server, ran, clock.failover(), run.connecting(topology::source));
        });
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

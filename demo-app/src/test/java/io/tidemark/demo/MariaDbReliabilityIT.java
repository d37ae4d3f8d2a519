package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reliability run on MariaDB in its short form: the invariants of {@link ReliabilityIT} hold on
 * a source and two replicas under their faults and a failover, and the negative control proves the
 * checker sees stale reads there too.
 */
class MariaDbReliabilityIT {

  @Test
  void noStaleMissingBackwardsOrLateReadNoFailedCommitAndEveryLostWriteReportedUnderFaults() {
    ReliabilityRun.Report report =
        MariaDbReliabilityRun.run(
            ReliabilityRun.Settings.fromSystemProperties(5_400, ReliabilityIT.CHAINS_PER_SECOND));
    report.save(ReliabilityRun.AUTOMATIC ? "summary-mariadb-automatic.md" : "summary-mariadb.md");
    System.out.println(report.table());
    System.out.println("figures: reliability on MariaDB " + report.verdict().summary());

    assertThat(report.faults()).hasSizeGreaterThanOrEqualTo(16);
    assertThat(report.byFault().keySet())
        .as("network faults among them")
        .anyMatch(fault -> fault.startsWith("instance1 cut from replica1"))
        .anyMatch(fault -> fault.startsWith("replica2 black-holed"))
        .anyMatch(fault -> fault.startsWith("instance1 cut from the source during commits"));
    ReliabilityRun.UnderFault writableReplica =
        report.byFault().entrySet().stream()
            .filter(fault -> fault.getKey().startsWith("replica2 writable"))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElseThrow();
    assertThat(writableReplica.writes()).isPositive();
    assertThat(writableReplica.refusedWrites())
        .as("writes while a replica was left writable: the source takes them")
        .isZero();
    assertThat(report.verdict().failedWrites().keySet())
        .as("writes answered with a bare 500 (a session left read-only took them, before the fix)")
        .noneMatch(status -> status.startsWith("500"));
    ReliabilityIT.assertGuaranteesHeld(report);
  }
}

package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

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
        ReliabilityIT.runAndSave(MariaDbReliabilityRun::run, "summary-mariadb", "on MariaDB ", 16);

    ReliabilityIT.assertNetworkFaultsAndSourceTookWritesOfAWritableReplica(report);
    assertThat(report.verdict().failedWrites().keySet())
        .as("writes answered with a bare 500 (a session left read-only took them, before the fix)")
        .noneMatch(status -> status.startsWith("500"));
    ReliabilityIT.assertGuaranteesHeld(report);
  }
}

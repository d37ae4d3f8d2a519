package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The reliability run on PostgreSQL in its short form: the invariants of {@link ReliabilityIT} hold
 * on a primary and two hot standbys under their faults and a failover, and the negative control
 * proves the checker sees stale reads there too.
 */
class PostgresReliabilityIT {

  @Test
  void noStaleMissingBackwardsOrLateReadNoFailedCommitAndEveryLostWriteReportedUnderFaults() {
    ReliabilityRun.Report report =
        PostgresReliabilityRun.run(
            ReliabilityRun.Settings.fromSystemProperties(5_400, ReliabilityIT.CHAINS_PER_SECOND));
    report.save(ReliabilityRun.AUTOMATIC ? "summary-postgres-automatic.md" : "summary-postgres.md");
    System.out.println(report.table());
    System.out.println("figures: reliability on PostgreSQL " + report.verdict().summary());

    assertThat(report.faults()).hasSizeGreaterThanOrEqualTo(9);
    ReliabilityIT.assertGuaranteesHeld(report);
  }
}

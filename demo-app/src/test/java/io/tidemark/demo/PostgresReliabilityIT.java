package io.tidemark.demo;

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
        ReliabilityIT.runAndSave(
            PostgresReliabilityRun::run, "summary-postgres", "on PostgreSQL ", 9);

    ReliabilityIT.assertGuaranteesHeld(report);
  }
}

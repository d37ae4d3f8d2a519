package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The reliability run in its short form (about two minutes); {@code bin/reliability} runs the long
 * one. The invariants hold under every fault, and the negative control proves the checker sees
 * stale reads.
 */
class ReliabilityIT {

  @Test
  void noStaleMissingBackwardsOrLateReadNoFailedCommitAndEveryLostWriteReportedUnderFaults() {
    ReliabilityRun.Report report =
        ReliabilityRun.run(ReliabilityRun.Settings.fromSystemProperties(5_400));
    report.save();
    System.out.println(report.table());
    Checker.Verdict verdict = report.verdict();
    System.out.println("figures: reliability " + verdict.summary());

    assertThat(report.control().stale() + report.control().notFound())
        .as("the control's stale reads")
        .isPositive();
    assertThat(report.faults()).hasSizeGreaterThanOrEqualTo(18);
    assertThat(report.byFault().keySet())
        .as("network faults among them")
        .anyMatch(fault -> fault.startsWith("instance1 cut from replica1"))
        .anyMatch(fault -> fault.startsWith("replica2 black-holed"))
        .anyMatch(fault -> fault.startsWith("instance1 cut from the source during commits"));
    assertThat(verdict.stale()).isZero();
    assertThat(verdict.notFound()).isZero();
    assertThat(verdict.nonMonotonic()).isZero();
    assertThat(verdict.pastDeadline()).isZero();
    assertThat(verdict.unreportedLostWrites()).isZero();
    assertThat(verdict.committedAnsweredAsFailure()).isZero();
    assertThat(verdict.doneWithoutResult()).isZero();
    assertThat(verdict.uncovered()).isZero();
    assertThat(verdict.tokenDropped()).isZero();
    assertThat(report.longSessionWrites())
        .as("acknowledged writes of each long session")
        .hasSize(2)
        .allMatch(writes -> writes >= 500);
    assertThat(report.cachedReads()).isPositive();
    assertThat(report.openInView()).as("JPA with Spring Boot's defaults").isTrue();
    assertThat(report.jpaReads()).isPositive();
    assertThat(verdict.writes()).isGreaterThan(report.settings().chains());
    assertThat(verdict.reads()).isGreaterThan(verdict.writes());
    assertThat(report.writesAfterFailover()).as("writes on the promoted source").isPositive();
  }
}

package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The reliability run in its short form (about two minutes); {@code bin/reliability} runs the long
 * one. The invariants hold under every fault, and the negative control proves the checker sees
 * stale reads.
 */
class ReliabilityIT {

  /**
   * Below the long run's 12: at 12 chains a second this run saturated the 2 cores of a slower
   * machine (20 to 40 runnable threads, read p50 40 to 90 ms), and 3 to 24 reads a run answered
   * past their deadline; at 8 the read p50 was 20 to 30 ms and none did.
   */
  static final int CHAINS_PER_SECOND = 8;

  @Test
  void noStaleMissingBackwardsOrLateReadNoFailedCommitAndEveryLostWriteReportedUnderFaults() {
    ReliabilityRun.Report report = runAndSave(ReliabilityRun::run, "summary", "", 18);

    assertNetworkFaultsAndSourceTookWritesOfAWritableReplica(report);
    assertThat(report.openInView()).as("JPA with Spring Boot's defaults").isTrue();
    assertGuaranteesHeld(report);
  }

  /**
   * Runs the short form with {@code run}, saves its table as {@code summary} (with {@code
   * -automatic} in the automatic mode) and prints it and its figures, {@code on} naming the server
   * where it is not MySQL; at least {@code faults} faults must have been applied.
   */
  static ReliabilityRun.Report runAndSave(
      Function<ReliabilityRun.Settings, ReliabilityRun.Report> run,
      String summary,
      String on,
      int faults) {
    ReliabilityRun.Report report =
        run.apply(ReliabilityRun.Settings.fromSystemProperties(5_400, CHAINS_PER_SECOND));
    report.save(summary + (ReliabilityRun.AUTOMATIC ? "-automatic.md" : ".md"));
    System.out.println(report.table());
    System.out.println("figures: reliability " + on + report.verdict().summary());

    assertThat(report.faults()).hasSizeGreaterThanOrEqualTo(faults);
    return report;
  }

  /**
   * On a source and replicas: the network faults ran, and while a replica was left writable, writes
   * went on and none was refused.
   */
  static void assertNetworkFaultsAndSourceTookWritesOfAWritableReplica(
      ReliabilityRun.Report report) {
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
  }

  /**
   * What every run must show, on any server: the control caught stale reads, and with Tidemark no
   * read was stale, missing, backwards or late, no committed write answered as failed, every lost
   * write reported, every answer carried its token; and the workload did what it is for.
   */
  static void assertGuaranteesHeld(ReliabilityRun.Report report) {
    Checker.Verdict verdict = report.verdict();
    assertThat(report.control().stale() + report.control().notFound())
        .as("the control's stale reads")
        .isPositive();
    assertThat(verdict.stale()).isZero();
    assertThat(verdict.notFound()).isZero();
    assertThat(verdict.nonMonotonic()).isZero();
    assertThat(verdict.pastDeadline()).isZero();
    assertThat(verdict.unreportedLostWrites()).isZero();
    assertThat(verdict.committedAnsweredAsFailure()).isZero();
    assertThat(verdict.doneWithoutResult()).isZero();
    assertThat(verdict.uncovered()).isZero();
    assertThat(verdict.tokenDropped()).isZero();
    // A long session runs back to back from the start; on a slow machine it is still running when
    // a fault refuses writes, and it ends at that write. It must still have written enough for its
    // token to cover writes scattered among everyone's, and never end outside a fault.
    assertThat(report.longSessionWrites())
        .as("acknowledged writes of each long session")
        .hasSize(2)
        .allMatch(
            session ->
                session.writes() >= ReliabilityRun.LONG_SESSION_WRITES
                    || (session.endedByFault() && session.writes() >= 100));
    assertThat(report.cachedReads()).isPositive();
    assertThat(report.cacheFills()).isPositive();
    assertThat(report.jpaReads()).isPositive();
    assertThat(report.globalReads()).as("reads at the GLOBAL level, without a token").isPositive();
    assertThat(verdict.writes()).isGreaterThan(report.settings().chains());
    assertThat(verdict.reads()).isGreaterThan(verdict.writes());
    assertThat(report.writesAfterFailover()).as("writes on the promoted source").isPositive();
    assertThat(report.reads())
        .as("the instances' reads")
        .isEqualTo(
            ReliabilityRun.AUTOMATIC
                ? "AutomaticOrderReads"
                : "AnnotatedOrderReads and AutomaticOrderReads");
  }
}

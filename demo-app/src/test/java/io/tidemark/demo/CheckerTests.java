package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.demo.Operation.Client;
import io.tidemark.demo.Operation.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class CheckerTests {

  private static final long MS = 1_000_000;
  private static final Duration DEADLINE = Duration.ofMillis(100);
  private static final long LATEST = DEADLINE.plus(Checker.SLACK).toNanos();

  private static Operation write(long chain, int step, long due, long ended, int status, long rev) {
    return write(chain, step, due, ended, status, rev, "");
  }

  private static Operation write(
      long chain, int step, long due, long ended, int status, long rev, String why) {
    return new Operation(
        chain,
        step,
        Client.HEADER,
        Kind.WRITE,
        due,
        due,
        ended,
        status,
        rev,
        -1,
        why,
        null,
        null,
        -1);
  }

  private static Operation read(
      long chain,
      int step,
      long sent,
      long ended,
      int status,
      long rev,
      long required,
      String why) {
    return new Operation(
        chain,
        step,
        Client.SESSION,
        Kind.READ,
        sent,
        sent,
        ended,
        status,
        rev,
        required,
        why,
        null,
        null,
        -1);
  }

  @Test
  void countsStaleMissingBackwardsLateAndRefusedReads() {
    List<Operation> history =
        List.of(
            write(1, 0, 0, 5 * MS, 201, 1),
            read(1, 1, 5 * MS, 9 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"),
            write(1, 2, 9 * MS, 12 * MS, 200, 2),
            read(1, 3, 12 * MS, 15 * MS, 200, 2, 2, "REPLICA_CAUGHT_UP"),
            read(1, 4, 15 * MS, 18 * MS, 200, 1, 2, "REPLICA_NO_TOKEN"),
            read(2, 1, 0, 3 * MS, 404, -1, 1, "PLAIN_REPLICA_READ"),
            read(3, 1, 0, LATEST - MS, 200, 4, 4, "SOURCE_FALLBACK"),
            read(3, 2, 0, LATEST + MS, 200, 4, 4, "SOURCE_FALLBACK"),
            read(4, 1, 0, 30 * MS, 503, -1, 1, "WAIT_TIMEOUT"),
            write(5, 0, 0, 1 * MS, 503, -1),
            write(6, 0, 0, 1 * MS, 200, -1),
            write(7, 0, 0, LATEST + MS, 503, -1));

    Checker.Verdict verdict = Checker.check(history, DEADLINE, Checker.Outcomes.nothingLost());

    assertThat(verdict.writes()).isEqualTo(2);
    assertThat(verdict.reads()).isEqualTo(6);
    assertThat(verdict.stale()).isEqualTo(1);
    assertThat(verdict.nonMonotonic()).as("older than the read before it").isEqualTo(1);
    assertThat(verdict.notFound()).isEqualTo(1);
    assertThat(verdict.pastDeadline())
        .as("only past deadline + slack, a write as a read")
        .isEqualTo(2);
    assertThat(verdict.refusals()).isEqualTo(Map.of("503 WAIT_TIMEOUT", 1L));
    assertThat(verdict.failedWrites()).isEqualTo(Map.of("503 ", 2L));
    assertThat(verdict.doneWithoutResult())
        .as("a 200 without the row is not acknowledged, and read as done by a client")
        .isEqualTo(1);
    assertThat(verdict.served()).containsEntry("SOURCE_FALLBACK", 2L);
    assertThat(verdict.sourceShare()).isEqualTo(2.0 / 6);
  }

  @Test
  void aLostWriteMustBeReportedToALaterReadOfItsChain() {
    List<Operation> history =
        List.of(
            write(1, 0, 0, MS, 201, 1),
            read(1, 1, MS, 2 * MS, 503, -1, 1, "TOKEN_NOT_ON_SOURCE"),
            write(2, 0, 0, MS, 201, 1),
            read(2, 1, MS, 2 * MS, 503, -1, 1, "WAIT_TIMEOUT"),
            write(3, 0, 0, MS, 201, 1));

    Checker.Verdict verdict =
        Checker.check(
            history,
            DEADLINE,
            new Checker.Outcomes(write -> write.chain() != 3, write -> false, write -> true));

    assertThat(verdict.lostWrites()).isEqualTo(2);
    assertThat(verdict.unreportedLostWrites()).isEqualTo(1);
    assertThat(verdict.examples())
        .anyMatch(e -> e.startsWith("unreported lost HEADER WRITE of chain 2"));
  }

  @Test
  void aWriteAnsweredAsFailureThatCommittedAndAnAnswerThatDoesNotCoverItsWriteAreCounted() {
    List<Operation> history =
        List.of(
            write(1, 0, 0, MS, 500, -1),
            write(2, 0, 0, MS, 503, -1),
            write(3, 0, 0, MS, 201, 1),
            write(4, 0, 0, MS, 201, 1));
    Checker.Outcomes outcomes =
        new Checker.Outcomes(
            write -> false, write -> write.chain() == 1, write -> write.chain() != 4);

    Checker.Verdict verdict = Checker.check(history, DEADLINE, outcomes);

    assertThat(verdict.committedAnsweredAsFailure()).isEqualTo(1);
    assertThat(verdict.failedWrites()).as("not committed").isEqualTo(Map.of("503 ", 1L));
    assertThat(verdict.uncovered()).isEqualTo(1);
    assertThat(verdict.writes()).isEqualTo(2);
    assertThat(verdict.examples())
        .anyMatch(e -> e.startsWith("committed but answered as failure HEADER WRITE of chain 1"))
        .anyMatch(e -> e.startsWith("without a covering token HEADER WRITE of chain 4"));
  }

  @Test
  void aWriteOfUnknownOutcomeThatCommittedMustBeSeenByTheReadsAfterIt() {
    List<Operation> history =
        List.of(
            write(1, 0, 0, MS, 201, 1),
            unknown(1, 3, MS, 2 * MS, 2),
            read(1, 4, 2 * MS, 3 * MS, 200, 2, 1, "SOURCE_BY_POLICY"),
            write(2, 0, 0, MS, 201, 1),
            unknown(2, 3, MS, 2 * MS, 2),
            read(2, 4, 2 * MS, 3 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"),
            write(3, 0, 0, MS, 201, 1),
            unknown(3, 3, MS, 2 * MS, 2),
            read(3, 4, 2 * MS, 3 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"));
    Checker.Outcomes outcomes =
        new Checker.Outcomes(
            write -> false,
            write -> write.chain() != 3,
            write -> write.chain() != 1 || !write.outcomeUnknown());

    Checker.Verdict verdict = Checker.check(history, DEADLINE, outcomes);

    assertThat(verdict.unknownOutcomes()).isEqualTo(3);
    assertThat(verdict.unknownCommitted()).isEqualTo(2);
    assertThat(verdict.committedAnsweredAsFailure()).as("not answered as failures").isZero();
    assertThat(verdict.failedWrites()).isEmpty();
    assertThat(verdict.stale())
        .as("chain 2's read missed its committed write; chain 3's did not commit")
        .isEqualTo(1);
    assertThat(verdict.uncovered()).isEqualTo(1);
    assertThat(verdict.examples())
        .anyMatch(e -> e.startsWith("stale SESSION READ of chain 2"))
        .anyMatch(
            e -> e.startsWith("unknown outcome without a covering token HEADER WRITE of chain 1"));
  }

  private static Operation unknown(long chain, int step, long due, long ended, long revision) {
    return write(chain, step, due, ended, 500, revision, Operation.UNKNOWN_OUTCOME);
  }

  @Test
  void anAnswerWithoutATokenToARequestThatSentOneIsCountedUnlessItRefusedTheToken() {
    List<Operation> history =
        List.of(
            sent(read(1, 1, 0, MS, 200, 1, 1, "REPLICA_AFTER_WAIT"), "t", null),
            sent(read(1, 2, 0, MS, 503, -1, 1, "WAIT_TIMEOUT"), "t", null),
            sent(read(1, 3, 0, MS, 400, -1, 1, "FROM_THE_FUTURE"), "t", null),
            sent(read(1, 4, 0, MS, 200, 1, 1, "REPLICA_CAUGHT_UP"), "t", "t2"),
            sent(read(1, 5, 0, MS, 0, -1, 1, "ResourceAccessException"), "t", null),
            read(1, 6, 0, MS, 200, 1, 1, "REPLICA_NO_TOKEN"));

    Checker.Verdict verdict = Checker.check(history, DEADLINE, Checker.Outcomes.nothingLost());

    assertThat(verdict.tokenDropped()).as("the 200 and the 503").isEqualTo(2);
    assertThat(verdict.examples()).anyMatch(e -> e.startsWith("token dropped"));
  }

  private static Operation sent(Operation op, String sent, String returned) {
    return with(op, op.client(), sent, returned);
  }

  /** {@code op} as {@code client} made it, having sent and got back these tokens. */
  private static Operation with(
      Operation op, Client client, @Nullable String sent, @Nullable String returned) {
    return new Operation(
        op.chain(),
        op.step(),
        client,
        op.kind(),
        op.intended(),
        op.started(),
        op.ended(),
        op.status(),
        op.revision(),
        op.required(),
        op.reason(),
        sent,
        returned,
        op.serverMillis());
  }

  @Test
  void aGlobalClientsReadsNeedOnlyWhatSurvivedAFailoverThatNobodyCouldTellItOf() {
    List<Operation> history =
        Stream.of(
                write(1, 0, 0, MS, 201, 1),
                read(1, 1, MS, 2 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"),
                write(1, 2, 2 * MS, 3 * MS, 200, 2),
                read(1, 3, 3 * MS, 4 * MS, 200, 2, 2, "REPLICA_AFTER_WAIT"),
                read(1, 4, 4 * MS, 5 * MS, 200, 1, 2, "REPLICA_AFTER_WAIT"),
                read(1, 5, 5 * MS, 6 * MS, 404, -1, 2, "REPLICA_AFTER_WAIT"),
                write(2, 0, 0, MS, 201, 1),
                write(2, 1, MS, 2 * MS, 200, 2),
                read(2, 2, 2 * MS, 3 * MS, 200, 1, 2, "REPLICA_AFTER_WAIT"))
            .map(CheckerTests::global)
            .toList();
    Checker.Outcomes outcomes =
        new Checker.Outcomes(
            write -> write.chain() == 1 && write.revision() == 2, write -> false, write -> true);

    Checker.Verdict verdict = Checker.check(history, DEADLINE, outcomes);

    assertThat(verdict.lostWrites()).isEqualTo(1);
    assertThat(verdict.unreportedLostWrites()).as("nothing could tell a tokenless client").isZero();
    assertThat(verdict.nonMonotonic()).as("back to what survived, once").isZero();
    assertThat(verdict.notFound()).as("what survived must still be found").isEqualTo(1);
    assertThat(verdict.stale()).as("chain 2 lost nothing").isEqualTo(1);
  }

  private static Operation global(Operation op) {
    return with(op, Client.GLOBAL, op.sent(), op.returned());
  }

  @Test
  void afterALossWasReportedAChainsReadsNeedOnlyWhatSurvived() {
    List<Operation> history =
        List.of(
            write(1, 0, 0, MS, 201, 1),
            read(1, 1, MS, 2 * MS, 200, 1, 1, "REPLICA_AFTER_WAIT"),
            write(1, 2, 2 * MS, 3 * MS, 200, 2),
            read(1, 3, 3 * MS, 4 * MS, 200, 2, 2, "SOURCE_FALLBACK"),
            read(1, 4, 4 * MS, 5 * MS, 503, -1, 2, "TOKEN_NOT_ON_SOURCE"),
            read(1, 5, 5 * MS, 6 * MS, 200, 1, 2, "REPLICA_AFTER_WAIT"),
            write(2, 0, 0, MS, 201, 1),
            read(2, 1, MS, 2 * MS, 503, -1, 1, "TOKEN_NOT_ON_SOURCE"),
            read(2, 2, 2 * MS, 3 * MS, 404, -1, 1, "REPLICA_AFTER_WAIT"),
            write(3, 0, 0, MS, 201, 1),
            read(3, 1, MS, 2 * MS, 404, -1, 1, "REPLICA_AFTER_WAIT"));
    Checker.Outcomes outcomes =
        new Checker.Outcomes(
            write -> write.chain() == 2 || write.revision() == 2, write -> false, write -> true);

    Checker.Verdict verdict = Checker.check(history, DEADLINE, outcomes);

    assertThat(verdict.lostWrites()).isEqualTo(2);
    assertThat(verdict.unreportedLostWrites()).isZero();
    assertThat(verdict.stale()).isZero();
    assertThat(verdict.nonMonotonic()).isZero();
    assertThat(verdict.notFound()).as("only chain 3's, which lost nothing").isEqualTo(1);
  }

  @Test
  void latencyCountsFromWhenAnOperationWasDue() {
    long[] nanos = new long[1000];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = (i + 1) * MS;
    }
    Checker.Latency latency = Checker.Latency.of(nanos);

    assertThat(latency.p50()).isEqualTo(500);
    assertThat(latency.p99()).isEqualTo(990);
    assertThat(latency.p999()).isEqualTo(999);
    assertThat(latency.max()).isEqualTo(1000);

    Operation queued =
        new Operation(
            1, 0, Client.HEADER, Kind.WRITE, 0, 40 * MS, 50 * MS, 201, 1, -1, "", null, null, -1);
    assertThat(
            Checker.check(List.of(queued), DEADLINE, Checker.Outcomes.nothingLost())
                .latency()
                .get(Kind.WRITE)
                .max())
        .isEqualTo(50);
  }
}

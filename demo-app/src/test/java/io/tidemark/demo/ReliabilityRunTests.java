package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.demo.Operation.Client;
import io.tidemark.demo.Operation.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the reliability run's summary says of the long sessions. */
class ReliabilityRunTests {

  private static final long SECOND = 1_000_000_000L;
  private static final long LONG_SESSION = 1_000_000_000L;

  private static final List<FaultSchedule.Applied> FAULTS =
      List.of(
          new FaultSchedule.Applied("replica1 cut", 10 * SECOND, 12 * SECOND, 10),
          new FaultSchedule.Applied("source cut", 13 * SECOND, 14 * SECOND, 13));

  @Test
  void aSessionEndedWhileAFaultHeldNamesItOverTheOneUndoneJustBefore() {
    List<ReliabilityRun.LongSession> sessions =
        ReliabilityRun.longSessionWrites(
            List.of(write(0, 200, 5 * SECOND), write(1, 503, 13 * SECOND + SECOND / 2)), FAULTS);

    assertThat(sessions)
        .singleElement()
        .satisfies(
            session -> {
              assertThat(session.writes()).isEqualTo(1);
              assertThat(session.endedByFault()).isTrue();
              assertThat(session.endedBy()).isEqualTo("503 NO_WRITABLE_SOURCE during source cut");
            });
  }

  @Test
  void aSessionEndedRightAfterAFaultNamesTheLastOneUndone() {
    List<ReliabilityRun.LongSession> sessions =
        ReliabilityRun.longSessionWrites(
            List.of(write(0, 200, 5 * SECOND), write(1, 503, 15 * SECOND)), FAULTS);

    assertThat(sessions.get(0).endedBy()).isEqualTo("503 NO_WRITABLE_SOURCE during source cut");
  }

  @Test
  void aSessionEndedFarFromAnyFaultSaysSo() {
    List<ReliabilityRun.LongSession> sessions =
        ReliabilityRun.longSessionWrites(
            List.of(write(0, 200, 5 * SECOND), write(1, 503, 30 * SECOND)), FAULTS);

    assertThat(sessions.get(0).endedByFault()).isFalse();
    assertThat(sessions.get(0).endedBy()).isEqualTo("503 NO_WRITABLE_SOURCE during no fault");
  }

  private static Operation write(int step, int status, long started) {
    return new Operation(
        LONG_SESSION,
        step,
        Client.HEADER,
        Kind.WRITE,
        started,
        started,
        started + SECOND / 100,
        status,
        status == 200 ? step + 1 : -1,
        0,
        status == 200 ? "" : "NO_WRITABLE_SOURCE",
        null,
        null,
        -1);
  }
}

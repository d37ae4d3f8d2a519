package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.ReadPolicy;
import io.tidemark.internal.SocketTimeout;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReadBudgetTests {

  private static final Duration TIMEOUT = Duration.ofMillis(500);
  private static final Duration FALLBACK_RESERVE = Duration.ofMillis(100);
  private static final Duration GRACE = Duration.ofMillis(SocketTimeout.SOCKET_GRACE_MILLIS);

  private final FakeTicker ticker = new FakeTicker();

  /**
   * The socket reads of a replica attempt end with it; the server's own timer must end the wait
   * before that, or a wait that ran out on a healthy replica reads as a lost connection
   * (REPLICA_ERROR, the connection dropped) instead of a wait that timed out.
   */
  @ParameterizedTest
  @EnumSource(ReadPolicy.class)
  void theWaitEndsASocketGraceBeforeTheReplicaAttempt(ReadPolicy policy) {
    ReadBudget budget = of(policy);

    assertThat(budget.waitDeadline().remaining())
        .isEqualTo(budget.replicaDeadline().remaining().minus(GRACE));
  }

  @ParameterizedTest
  @EnumSource(
      value = ReadPolicy.class,
      names = "FALLBACK_TO_SOURCE",
      mode = EnumSource.Mode.EXCLUDE)
  void aReadThatMayNotFallBackGivesTheReplicaItsWholeBudget(ReadPolicy policy) {
    ReadBudget budget = of(policy);

    assertThat(budget.replicaDeadline().remaining()).isEqualTo(TIMEOUT);
    assertThat(budget.deadline().remaining()).isEqualTo(TIMEOUT);
  }

  @ParameterizedTest
  @EnumSource(value = ReadPolicy.class, names = "FALLBACK_TO_SOURCE")
  void aReadThatMayFallBackKeepsTheReserveForTheSource(ReadPolicy policy) {
    ReadBudget budget = of(policy);

    assertThat(budget.replicaDeadline().remaining()).isEqualTo(TIMEOUT.minus(FALLBACK_RESERVE));
    assertThat(budget.deadline().remaining()).isEqualTo(TIMEOUT);
  }

  private ReadBudget of(ReadPolicy policy) {
    return ReadBudget.of(
        ReadOptions.defaults().withTimeout(TIMEOUT).withPolicy(policy),
        FALLBACK_RESERVE,
        ticker,
        null);
  }
}

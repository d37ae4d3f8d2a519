package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.ReadPolicy;
import io.tidemark.Ticker;
import java.time.Duration;

/**
 * A read's time: its deadline, the earlier end of its replica attempt when it may fall back to the
 * source, and the socket bounds derived from them.
 */
final class ReadBudget {

  private static final long SOCKET_GRACE_MILLIS = 50;

  private final long started;
  private final Deadline deadline;
  private final Deadline replicaDeadline;

  private ReadBudget(long started, Deadline deadline, Deadline replicaDeadline) {
    this.started = started;
    this.deadline = deadline;
    this.replicaDeadline = replicaDeadline;
  }

  /**
   * The budget of a read with {@code options}; one that may fall back keeps {@code fallbackReserve}
   * (at most half the budget, so the replica gets a wait) for the fallback.
   */
  static ReadBudget of(ReadOptions options, Duration fallbackReserve, Ticker ticker) {
    long started = ticker.read();
    Duration budget = options.timeout();
    Deadline deadline = Deadline.after(budget, ticker);
    Duration half = budget.dividedBy(2);
    Duration reserve = fallbackReserve.compareTo(half) < 0 ? fallbackReserve : half;
    return new ReadBudget(
        started,
        deadline,
        options.policy() == ReadPolicy.FALLBACK_TO_SOURCE
            ? deadline.atMost(budget.minus(reserve))
            : deadline);
  }

  /** When the read must end. */
  Deadline deadline() {
    return deadline;
  }

  /** When the replica attempt must end: earlier than the read when it may fall back. */
  Deadline replicaDeadline() {
    return replicaDeadline;
  }

  /** The ticker reading when the read began. */
  long started() {
    return started;
  }

  /** What is left until {@code end} in milliseconds, at least 1: a network timeout of 0 is none. */
  static long millisLeft(Deadline end) {
    return Math.max(1, end.remaining().toMillis());
  }

  /**
   * What is left until {@code end} plus a grace for socket reads: a server that answers nothing
   * must not hold the read past its deadline, yet a wait the server ends on time must not be cut by
   * the socket first.
   */
  static long socketMillis(Deadline end) {
    return Math.max(0, end.remaining().toMillis()) + SOCKET_GRACE_MILLIS;
  }
}

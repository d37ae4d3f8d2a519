package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.ReadPolicy;
import io.tidemark.Ticker;
import io.tidemark.internal.SocketTimeout;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A read's time: its deadline, the earlier end of its replica attempt when it may fall back to the
 * source, and the socket bounds derived from them.
 *
 * @param started the ticker reading when the read began
 * @param deadline when the read must end
 * @param replicaDeadline when the replica attempt must end, its query's socket reads included, so a
 *     replica that stops answering mid-query leaves a fallback its share: earlier than the read
 *     when it may fall back, the deadline itself when it may not
 * @param waitDeadline when the wait on a replica must end: a socket grace before the replica
 *     attempt's end, whatever the policy, so a wait the server ends on time is never cut by the
 *     socket first; or earlier when the unit of work has spent its waits; taking the connection and
 *     the query keep the attempt's time
 */
record ReadBudget(
    long started, Deadline deadline, Deadline replicaDeadline, Deadline waitDeadline) {

  /**
   * The budget of a read with {@code options}; one that may fall back keeps {@code fallbackReserve}
   * (at most half the budget, so the replica gets a wait) for the fallback, and waits no longer
   * than {@code context} lets the reads of its unit of work wait.
   */
  static ReadBudget of(
      ReadOptions options,
      Duration fallbackReserve,
      Ticker ticker,
      @Nullable ConsistencyContext context) {
    long started = ticker.read();
    Duration budget = options.timeout();
    Deadline deadline = Deadline.after(budget, ticker);
    boolean fallback = options.policy() == ReadPolicy.FALLBACK_TO_SOURCE;
    Duration half = budget.dividedBy(2);
    Duration reserve = fallbackReserve.compareTo(half) < 0 ? fallbackReserve : half;
    Duration replica = fallback ? budget.minus(reserve) : budget;
    Deadline replicaDeadline = deadline.atMost(replica);
    Deadline waitEnd = deadline.atMost(replica.minusMillis(SocketTimeout.SOCKET_GRACE_MILLIS));
    // Reads that may not fall back keep their own budget: a later read of the unit of work would
    // fail where it could still wait.
    return new ReadBudget(
        started,
        deadline,
        replicaDeadline,
        fallback && context != null ? context.waitsEnd(waitEnd) : waitEnd);
  }
}

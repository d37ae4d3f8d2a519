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
 * @param replicaDeadline when the replica attempt must end: earlier than the read when it may fall
 *     back
 * @param waitDeadline when the wait on a replica must end: a socket grace before the replica
 *     attempt's end, or earlier when the unit of work has spent its waits; taking the connection
 *     and the query keep the attempt's time
 * @param replicaQueryEnd when the socket reads of the query on a replica are cut: the end of the
 *     replica attempt, as for its wait, so a replica that stops answering mid-query leaves a
 *     fallback its share; the deadline itself when the read may not fall back
 */
record ReadBudget(
    long started,
    Deadline deadline,
    Deadline replicaDeadline,
    Deadline waitDeadline,
    Deadline replicaQueryEnd) {

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
    Duration half = budget.dividedBy(2);
    Duration reserve = fallbackReserve.compareTo(half) < 0 ? fallbackReserve : half;
    if (options.policy() != ReadPolicy.FALLBACK_TO_SOURCE) {
      return new ReadBudget(started, deadline, deadline, deadline, deadline);
    }
    Duration replica = budget.minus(reserve);
    Deadline replicaDeadline = deadline.atMost(replica);
    // A replica that stops answering is cut at the end of its share, so the fallback keeps all of
    // its reserve; the wait ends a socket grace earlier, so a wait the server ends on time is not
    // cut by the socket first.
    Deadline waitEnd = deadline.atMost(replica.minusMillis(SocketTimeout.SOCKET_GRACE_MILLIS));
    return new ReadBudget(
        started,
        deadline,
        replicaDeadline,
        context == null ? waitEnd : context.waitsEnd(waitEnd),
        replicaDeadline);
  }
}

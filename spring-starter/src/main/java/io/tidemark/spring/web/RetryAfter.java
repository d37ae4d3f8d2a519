package io.tidemark.spring.web;

import io.tidemark.Reason;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The seconds a 503 tells the client to wait. A read refused because the replica had not caught up
 * can likely be served once the least lagging readable replica has applied what it is behind by:
 * its measured lag, rounded up, at least a second and at most {@code tidemark.web.max-retry-after}
 * (a stopped replica's lag only grows, and a client should not be sent away for an hour). Every
 * other refusal, and a lag refusal while no readable replica's lag is known, gets {@code
 * tidemark.web.retry-after}.
 */
final class RetryAfter {

  private static final Set<Reason> REPLICA_BEHIND =
      EnumSet.of(
          Reason.WAIT_TIMEOUT,
          Reason.BUDGET_EXHAUSTED,
          Reason.REPLICA_LAG_EXCEEDED,
          Reason.REVISION_NOT_REACHED);

  private final Supplier<@Nullable TopologySnapshot> topology;
  private final Duration fallback;
  private final Duration max;

  RetryAfter(Supplier<@Nullable TopologySnapshot> topology, Duration fallback, Duration max) {
    this.topology = topology;
    this.fallback = fallback;
    this.max = max;
  }

  long seconds(Enum<?> reason) {
    Duration lag = REPLICA_BEHIND.contains(reason) ? leastReplicaLag() : null;
    if (lag == null) {
      return Math.max(1, ceilSeconds(fallback));
    }
    return Math.max(1, Math.min(ceilSeconds(lag), ceilSeconds(max)));
  }

  private @Nullable Duration leastReplicaLag() {
    TopologySnapshot snapshot = topology.get();
    if (snapshot == null) {
      return null;
    }
    return snapshot.nodes().stream()
        .filter(NodeState::readable)
        .map(NodeState::lag)
        .min(Duration::compareTo)
        .orElse(null);
  }

  /** Whole seconds, rounded up: Retry-After has no finer unit. */
  private static long ceilSeconds(Duration duration) {
    long millis = Math.max(0, duration.toMillis());
    return (millis + 999) / 1000;
  }
}

package io.tidemark.jdbc;

import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * GTIDs a source was found to lack: writes a failover lost. A token naming any of them will never
 * be reached by a replica, so its read goes to the source at once instead of holding a replica
 * connection for its whole budget first. Bounded: past {@value #MAX_INTERVALS} intervals the newest
 * loss replaces what was kept, which costs only a wait, never a wrong answer.
 */
final class LostWrites {

  static final int MAX_INTERVALS = 1_024;

  private final AtomicReference<GtidSet> lost = new AtomicReference<>(GtidSet.EMPTY);

  /**
   * The {@code TOKEN_NOT_ON_SOURCE} of a token {@code source} lacks, naming (and remembering) what
   * it lacks when the source can tell. What the source has received and not applied yet (a replica
   * promoted before its applier finished) is not lost: the read is refused without naming anything
   * lost, and a later one finds it.
   */
  ConsistentReadException notOnSource(
      Connection source, GtidSet required, String replica, Duration waited, String detail) {
    GtidSet missing;
    GtidSet pending;
    try {
      Dialect dialect = Dialect.of(source);
      missing = dialect.missing(source, required);
      pending = missing == null ? null : missing.intersection(dialect.received(source));
    } catch (SQLException e) {
      missing = null;
      pending = null;
    }
    if (missing == null || missing.isEmpty() || pending == null) {
      return ConsistentReadException.of(
          Reason.TOKEN_NOT_ON_SOURCE, required, replica, waited, detail);
    }
    if (!pending.isEmpty()) {
      return ConsistentReadException.of(
          Reason.TOKEN_NOT_ON_SOURCE,
          required,
          replica,
          waited,
          detail + "; it has received them and not applied them yet: " + pending);
    }
    remember(missing);
    return ConsistentReadException.lost(required, missing, replica, waited, detail);
  }

  void remember(GtidSet missing) {
    lost.updateAndGet(
        known -> {
          GtidSet union = known.union(missing);
          return union.intervalCount() > MAX_INTERVALS ? missing : union;
        });
  }

  /** The GTIDs found lost so far (bounded, as the class says). */
  GtidSet known() {
    return Objects.requireNonNull(lost.get());
  }

  /** Whether {@code required} names a GTID found lost. */
  boolean namedIn(GtidSet required) {
    GtidSet known = known();
    return !known.isEmpty() && !required.intersection(known).isEmpty();
  }
}

package io.tidemark.scope;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a scope store knows about a scope: the GTIDs written under it, that a write under it escaped
 * capture ({@link Status#DIRTY}), or that the store could not be read ({@link Status#UNKNOWN}).
 *
 * <p>Only {@link Status#KNOWN} may be read from a replica after waiting for {@link #gtids()}; the
 * other two take the source path. An unknown scope is never reported as an empty one: "no writes"
 * and "could not tell" lead to different reads.
 *
 * @param status whether the GTIDs are the whole requirement
 * @param gtids the GTIDs known to have been written under the scope; empty when unknown
 * @param because why reads must use the source, or {@code null} for {@link Status#KNOWN}
 */
public record ScopeState(Status status, GtidSet gtids, @Nullable String because) {

  /** A scope without writes, or whose writes expired. */
  public static final ScopeState EMPTY = new ScopeState(Status.KNOWN, GtidSet.EMPTY, null);

  /** How far a scope's token can be trusted. */
  public enum Status {
    /** The GTIDs are everything written under the scope. */
    KNOWN,
    /** A write under the scope escaped capture or overflowed the size limit: use the source. */
    DIRTY,
    /**
     * The store could not be read in time, or cannot tell whether it lost the scope (Redis evicted
     * keys lately): use the source.
     */
    UNKNOWN
  }

  /** Checks that only known tokens come without a reason. */
  public ScopeState {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(gtids, "gtids");
    if ((status == Status.KNOWN) != (because == null)) {
      throw new IllegalArgumentException("a reason is required exactly when not KNOWN: " + status);
    }
  }

  /** A scope whose writes are exactly {@code gtids}. */
  public static ScopeState known(GtidSet gtids) {
    return gtids.isEmpty() ? EMPTY : new ScopeState(Status.KNOWN, gtids, null);
  }

  /** A scope with a write that could not be captured. */
  public static ScopeState dirty(GtidSet gtids, String because) {
    return new ScopeState(Status.DIRTY, gtids, because);
  }

  /** A scope the store could not read. */
  public static ScopeState unknown(String because) {
    return new ScopeState(Status.UNKNOWN, GtidSet.EMPTY, because);
  }

  /** Whether reads under this scope must use the source. */
  public boolean requiresSource() {
    return status != Status.KNOWN;
  }

  /**
   * What reads under both scopes need: the union of the GTIDs, and the source when either needs it
   * ({@link Status#UNKNOWN} before {@link Status#DIRTY}).
   */
  public ScopeState and(ScopeState other) {
    Status worse = status.compareTo(other.status) >= 0 ? status : other.status;
    String reason = status.compareTo(other.status) >= 0 ? because : other.because;
    return new ScopeState(worse, gtids.union(other.gtids), reason);
  }

  /** Merges this scope's requirement into {@code context}: its GTIDs, and dirty when not known. */
  public void applyTo(ConsistencyContext context) {
    context.merge(gtids);
    if (because != null) {
      context.markDirty(because);
    }
  }
}

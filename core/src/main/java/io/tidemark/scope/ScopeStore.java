package io.tidemark.scope;

import io.tidemark.GtidSet;
import java.util.Collection;

/**
 * A place where token scopes live between requests: per {@link ScopeKey}, the union of every GTID
 * set merged under it, kept for a time to live that each merge renews.
 *
 * <p>Every implementation guarantees, and passes one contract test suite for:
 *
 * <ul>
 *   <li>{@link #merge} is an atomic set union: concurrent merges from any number of threads and
 *       instances lose nothing; a scope only grows until it expires.
 *   <li>{@link #get} never reports a scope it could not read, or may have lost before its time to
 *       live (evicted), as empty: it answers {@link ScopeState.Status#UNKNOWN}, and callers take
 *       the source path.
 *   <li>A scope grows no larger than the configured interval limit: past it, the scope is marked
 *       dirty for its time to live instead of being stored weaker. A dirty mark never ends one that
 *       lasts longer.
 *   <li>No call blocks longer than the configured command timeout, and none throws for a failure of
 *       the backing store; failures are counted in {@link #stats()}.
 * </ul>
 */
public interface ScopeStore {

  /** What the store knows about {@code scope}; {@link ScopeState#EMPTY} when nothing was merged. */
  ScopeState get(ScopeKey scope);

  /**
   * What reads under all of {@code scopes} need: their tokens {@linkplain ScopeState#and combined}.
   */
  default ScopeState get(Collection<ScopeKey> scopes) {
    ScopeState combined = ScopeState.EMPTY;
    for (ScopeKey scope : scopes) {
      combined = combined.and(get(scope));
    }
    return combined;
  }

  /**
   * Adds {@code gtids} to the scope's token and renews its time to live.
   *
   * @return whether the merge is known to be stored; when not, the caller's header token still
   *     carries the write, but other instances may not see it through this scope (a merge that
   *     timed out may still be applied later, which only adds)
   */
  boolean merge(ScopeKey scope, GtidSet gtids);

  /**
   * Marks the scope dirty, so that reads under it take the source path on every instance for the
   * configured dirty time to live: a write under it committed without a captured GTID.
   *
   * @return whether the mark is known to be stored
   */
  boolean markDirty(ScopeKey scope, String because);

  /** Counts of reads, writes and failures so far. */
  ScopeStoreStats stats();
}

package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One tier of a {@link RevisionGuardedCache}, in memory or in Redis: each decides how an entry is
 * looked up and how one is written where it may replace what the key holds; the guard on revisions
 * and GTID sets is the same for both.
 */
abstract class CacheTier<V> implements RevisionGuardedCache<V> {

  /** The stored entry, tombstones included; null when there is none or the tier did not answer. */
  abstract @Nullable Entry<V> lookup(String key);

  /** Stores {@code entry} where it may replace what the key holds; false also on failure. */
  abstract boolean write(String key, Entry<V> entry);

  @Override
  public final boolean put(String key, long revision, V value, GtidSet gtids) {
    return write(key, Entry.value(revision, value, gtids));
  }

  @Override
  public final Optional<CachedValue<V>> get(
      String key, long minRevision, GtidSet required, GtidSet lost) {
    return Entry.visible(lookup(key), minRevision, required, lost);
  }

  @Override
  public final boolean delete(String key, long revision) {
    RevisionGuardedCache.checkRevision(revision);
    return write(key, Entry.tombstone(revision));
  }
}

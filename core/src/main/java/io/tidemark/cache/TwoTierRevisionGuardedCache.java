package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link RevisionGuardedCache} with an in-process tier in front of a shared Redis tier, each
 * guarded on its own: no tier ever replaces a newer revision by an older one.
 *
 * <p>Writes go to Redis first and reach the local tier only when Redis stored them, so a put that
 * Redis refused as stale cannot live on locally. Reads try the local tier and, on a miss or an
 * entry older than required, Redis; what Redis returns (value or tombstone) is put into the local
 * tier through its guard. Another instance's newer write reaches this instance's local tier by
 * {@link #invalidate} or by expiry; until then reads with a minimum revision miss locally and read
 * Redis, so a lost invalidation only delays fresher data for reads without one.
 */
final class TwoTierRevisionGuardedCache<V> implements RevisionGuardedCache<V> {

  private final CaffeineRevisionGuardedCache<V> local;
  private final RedisRevisionGuardedCache<V> shared;

  private TwoTierRevisionGuardedCache(
      CaffeineRevisionGuardedCache<V> local, RedisRevisionGuardedCache<V> shared) {
    this.local = Objects.requireNonNull(local, "local");
    this.shared = Objects.requireNonNull(shared, "shared");
  }

  /** {@code local} in front of {@code shared}. */
  static <V> TwoTierRevisionGuardedCache<V> of(
      CaffeineRevisionGuardedCache<V> local, RedisRevisionGuardedCache<V> shared) {
    return new TwoTierRevisionGuardedCache<>(local, shared);
  }

  @Override
  public boolean put(String key, long revision, V value, GtidSet gtids) {
    Entry<V> entry = Entry.value(revision, value, gtids);
    if (!shared.write(key, entry)) {
      return false;
    }
    local.write(key, entry);
    return true;
  }

  @Override
  public Optional<CachedValue<V>> get(
      String key, long minRevision, GtidSet required, GtidSet lost) {
    Entry<V> near = local.lookup(key);
    if (near != null
        && near.revision() >= minRevision
        && (near.isTombstone() || near.gtids().containsAll(required))) {
      return Entry.visible(near, minRevision, required, lost);
    }
    Entry<V> far = shared.lookup(key);
    if (far == null) {
      return Optional.empty();
    }
    local.write(key, far);
    return Entry.visible(far, minRevision, required, lost);
  }

  @Override
  public boolean delete(String key, long revision) {
    RevisionGuardedCache.checkRevision(revision);
    Entry<V> tombstone = Entry.tombstone(revision);
    boolean stored = shared.write(key, tombstone);
    // Locally at once, even when Redis failed: this instance must not serve what it deleted.
    local.write(key, tombstone);
    return stored;
  }

  @Override
  public void invalidate(String key, long revision) {
    local.invalidate(key, revision);
  }

  @Override
  public long failures() {
    return shared.failures();
  }

  @Override
  public String toString() {
    return "TwoTierRevisionGuardedCache(" + local + " in front of " + shared + ")";
  }
}

package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link VersionedCache} with an in-process tier in front of a shared Redis tier, each guarded on
 * its own: no tier ever replaces a newer version by an older one.
 *
 * <p>Writes go to Redis first and reach the local tier only when Redis stored them, so a put that
 * Redis refused as stale cannot live on locally. Reads try the local tier and, on a miss or an
 * entry older than required, Redis; what Redis returns (value or tombstone) is put into the local
 * tier through its guard. Another instance's newer write reaches this instance's local tier by
 * {@link #invalidate} or by expiry; until then reads with a minimum version miss locally and read
 * Redis, so a lost invalidation only delays fresher data for reads without one.
 */
public final class TwoTierVersionedCache<V> implements VersionedCache<V> {

  private final CaffeineVersionedCache<V> local;
  private final RedisVersionedCache<V> shared;

  private TwoTierVersionedCache(CaffeineVersionedCache<V> local, RedisVersionedCache<V> shared) {
    this.local = Objects.requireNonNull(local, "local");
    this.shared = Objects.requireNonNull(shared, "shared");
  }

  /** {@code local} in front of {@code shared}. */
  public static <V> TwoTierVersionedCache<V> of(
      CaffeineVersionedCache<V> local, RedisVersionedCache<V> shared) {
    return new TwoTierVersionedCache<>(local, shared);
  }

  @Override
  public boolean put(String key, long version, V value, GtidSet gtids) {
    VersionedCache.checkVersion(version);
    Entry<V> entry =
        new Entry<>(version, Objects.requireNonNull(value, "value"), Objects.requireNonNull(gtids));
    if (!shared.write(key, entry)) {
      return false;
    }
    local.write(key, entry);
    return true;
  }

  @Override
  public Optional<Versioned<V>> get(String key, long minVersion, GtidSet required) {
    Entry<V> near = local.lookup(key);
    if (near != null
        && near.version() >= minVersion
        && (near.isTombstone() || near.gtids().containsAll(required))) {
      return Entry.visible(near, minVersion, required);
    }
    Entry<V> far = shared.lookup(key);
    if (far == null) {
      return Optional.empty();
    }
    local.write(key, far);
    return Entry.visible(far, minVersion, required);
  }

  @Override
  public boolean delete(String key, long version) {
    VersionedCache.checkVersion(version);
    Entry<V> tombstone = Entry.tombstone(version);
    boolean stored = shared.write(key, tombstone);
    // Locally at once, even when Redis failed: this instance must not serve what it deleted.
    local.write(key, tombstone);
    return stored;
  }

  /** Drops the local entry if it is older than {@code version}; see the class description. */
  public void invalidate(String key, long version) {
    local.invalidate(key, version);
  }

  @Override
  public String toString() {
    return "TwoTierVersionedCache(" + local + " in front of " + shared + ")";
  }
}

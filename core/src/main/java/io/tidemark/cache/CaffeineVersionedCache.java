package io.tidemark.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.tidemark.GtidSet;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link VersionedCache} in this process's memory, through Caffeine. Each write runs inside
 * {@code compute}, which Caffeine runs atomically per key, so the version check and the write
 * cannot interleave with another write. Values live for the time to live, tombstones for the
 * tombstone time to live.
 *
 * <p>Eviction for size must not take the guard with it: a key evicted at version 6 (or deleted at
 * 7) would otherwise accept a slow reader's version 5. So each evicted entry leaves its version in
 * a fixed table of slots by key hash until the entry would have expired, and a put for an absent
 * key at that version or older is refused. Keys sharing a slot share the highest version, which
 * only refuses more puts: a refused put is a miss, never an older value.
 */
public final class CaffeineVersionedCache<V> implements VersionedCache<V> {

  /**
   * An entry with the ticker time it expires at. A refused write hands Caffeine the old entry back
   * from {@code compute}, which Caffeine counts as an update; the fixed instant keeps that from
   * renewing the entry's life.
   */
  private record Stamped<V>(Entry<V> entry, long expiresAt) {}

  private final Cache<String, Stamped<V>> entries;
  private final VersionedCacheConfig config;
  // Guarded by this: the version and the end of life of what was evicted from each slot.
  private final long[] evictedVersions;
  private final long[] evictedUntil;

  private CaffeineVersionedCache(VersionedCacheConfig config) {
    this.config = config;
    int slots =
        Integer.highestOneBit((int) Math.min(1 << 20, Math.max(64, config.maximumSize() * 4)));
    this.evictedVersions = new long[slots];
    this.evictedUntil = new long[slots];
    this.entries =
        Caffeine.newBuilder()
            .ticker(config.ticker()::read)
            .maximumSize(config.maximumSize())
            // On the writing thread, so the guard of an evicted key is in place before any put.
            .executor(Runnable::run)
            .evictionListener(
                (String key, @Nullable Stamped<V> value, RemovalCause cause) -> {
                  if (cause == RemovalCause.SIZE && key != null && value != null) {
                    evicted(key, value);
                  }
                })
            .expireAfter(
                new Expiry<String, Stamped<V>>() {
                  @Override
                  public long expireAfterCreate(String key, Stamped<V> value, long now) {
                    return value.expiresAt() - now;
                  }

                  @Override
                  public long expireAfterUpdate(
                      String key, Stamped<V> value, long now, long currentDuration) {
                    return value.expiresAt() - now;
                  }

                  @Override
                  public long expireAfterRead(
                      String key, Stamped<V> value, long now, long currentDuration) {
                    return currentDuration;
                  }
                })
            .build();
  }

  /**
   * A cache with {@code config}; its time to live, tombstone time to live, size and ticker apply.
   */
  public static <V> CaffeineVersionedCache<V> create(VersionedCacheConfig config) {
    return new CaffeineVersionedCache<>(Objects.requireNonNull(config, "config"));
  }

  @Override
  public boolean put(String key, long version, V value, GtidSet gtids) {
    VersionedCache.checkVersion(version);
    return write(
        key,
        new Entry<>(
            version, Objects.requireNonNull(value, "value"), Objects.requireNonNull(gtids)));
  }

  @Override
  public Optional<Versioned<V>> get(String key, long minVersion, GtidSet required) {
    return Entry.visible(lookup(key), minVersion, required);
  }

  @Override
  public boolean delete(String key, long version) {
    VersionedCache.checkVersion(version);
    return write(key, Entry.tombstone(version));
  }

  /**
   * Drops the entry if it is older than {@code version}: what a message saying "key changed at
   * version" does. Losing such a message costs no correctness for reads with a minimum version,
   * which miss on the older entry anyway; it only delays fresher data for reads without one.
   */
  public void invalidate(String key, long version) {
    entries.asMap().computeIfPresent(key, (k, old) -> old.entry().olderThan(version) ? null : old);
  }

  @Nullable Entry<V> lookup(String key) {
    Stamped<V> stamped = entries.getIfPresent(key);
    return stamped == null ? null : stamped.entry();
  }

  /** Stores {@code entry} where it may replace what the key holds; atomic per key. */
  boolean write(String key, Entry<V> entry) {
    boolean[] stored = {false};
    entries
        .asMap()
        .compute(
            key,
            (k, old) -> {
              if (old != null
                  ? !old.entry().replaceableBy(entry)
                  : refusedSinceEviction(k, entry.version())) {
                return old;
              }
              stored[0] = true;
              long now = config.ticker().read();
              return new Stamped<>(
                  entry,
                  now
                      + (entry.isTombstone() ? config.tombstoneTimeToLive() : config.timeToLive())
                          .toNanos());
            });
    return stored[0];
  }

  private int slot(String key) {
    int h = key.hashCode();
    return (h ^ (h >>> 16)) & (evictedVersions.length - 1);
  }

  private synchronized void evicted(String key, Stamped<V> stamped) {
    int i = slot(key);
    long version = stamped.entry().version();
    if (evictedUntil[i] - config.ticker().read() <= 0) {
      evictedVersions[i] = version;
      evictedUntil[i] = stamped.expiresAt();
    } else {
      evictedVersions[i] = Math.max(evictedVersions[i], version);
      evictedUntil[i] =
          evictedUntil[i] - stamped.expiresAt() >= 0 ? evictedUntil[i] : stamped.expiresAt();
    }
  }

  private synchronized boolean refusedSinceEviction(String key, long version) {
    int i = slot(key);
    return evictedUntil[i] - config.ticker().read() > 0 && version <= evictedVersions[i];
  }

  @Override
  public String toString() {
    return "CaffeineVersionedCache(" + entries.estimatedSize() + " entries)";
  }
}

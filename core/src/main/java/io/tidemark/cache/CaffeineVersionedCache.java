package io.tidemark.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link VersionedCache} in this process's memory, through Caffeine. Each write runs inside
 * {@code compute}, which Caffeine runs atomically per key, so the version check and the write
 * cannot interleave with another write. Values live for the time to live, tombstones for the
 * tombstone time to live; eviction for size only ever turns a hit into a miss.
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

  private CaffeineVersionedCache(VersionedCacheConfig config) {
    this.config = config;
    this.entries =
        Caffeine.newBuilder()
            .ticker(config.ticker()::read)
            .maximumSize(config.maximumSize())
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
  public boolean put(String key, long version, V value) {
    VersionedCache.checkVersion(version);
    return write(key, new Entry<>(version, Objects.requireNonNull(value, "value")));
  }

  @Override
  public Optional<Versioned<V>> get(String key, long minVersion) {
    return visible(lookup(key), minVersion);
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

  /** Stores {@code entry} unless the key holds its version or a newer one; atomic per key. */
  boolean write(String key, Entry<V> entry) {
    boolean[] stored = {false};
    entries
        .asMap()
        .compute(
            key,
            (k, old) -> {
              if (old != null && !old.entry().olderThan(entry.version())) {
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

  static <V> Optional<Versioned<V>> visible(@Nullable Entry<V> entry, long minVersion) {
    if (entry == null || entry.version() < minVersion) {
      return Optional.empty();
    }
    V value = entry.value();
    return value == null ? Optional.empty() : Optional.of(new Versioned<>(entry.version(), value));
  }

  @Override
  public String toString() {
    return "CaffeineVersionedCache(" + entries.estimatedSize() + " entries)";
  }
}

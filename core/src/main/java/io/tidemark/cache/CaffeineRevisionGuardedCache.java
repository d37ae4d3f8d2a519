package io.tidemark.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RevisionGuardedCache} in this process's memory, through Caffeine. Each write runs inside
 * {@code compute}, which Caffeine runs atomically per key, so the revision check and the write
 * cannot interleave with another write. Values live for the time to live, tombstones for the
 * tombstone time to live.
 *
 * <p>Eviction for size must not take the guard with it: a key evicted at revision 6 (or deleted at
 * 7) would otherwise accept a slow reader's revision 5. So each evicted entry leaves its revision
 * in a fixed table of slots by key hash until the entry would have expired, and a put for an absent
 * key at that revision or older is refused. Keys sharing a slot share the highest revision, which
 * only refuses more puts: a refused put is a miss, never an older value.
 */
final class CaffeineRevisionGuardedCache<V> extends CacheTier<V> {

  /**
   * An entry with the ticker time it expires at. A refused write hands Caffeine the old entry back
   * from {@code compute}, which Caffeine counts as an update; the fixed instant keeps that from
   * renewing the entry's life.
   */
  private record Stamped<V>(Entry<V> entry, long expiresAt) {}

  private final Cache<String, Stamped<V>> entries;
  private final RevisionGuardedCacheConfig config;
  // Guarded by this: the revision and the end of life of what was evicted from each slot.
  private final long[] evictedRevisions;
  private final long[] evictedUntil;

  private CaffeineRevisionGuardedCache(RevisionGuardedCacheConfig config) {
    this.config = config;
    int slots =
        Integer.highestOneBit((int) Math.min(1 << 20, Math.max(64, config.maximumSize() * 4)));
    this.evictedRevisions = new long[slots];
    this.evictedUntil = new long[slots];
    this.entries =
        Caffeine.newBuilder()
            .ticker(config.ticker()::read)
            .maximumSize(config.maximumSize())
            // On the writing thread, so the guard of an evicted key is in place before any put.
            .executor(Runnable::run)
            .evictionListener(
                (@Nullable String key, @Nullable Stamped<V> value, RemovalCause cause) -> {
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
  static <V> CaffeineRevisionGuardedCache<V> create(RevisionGuardedCacheConfig config) {
    return new CaffeineRevisionGuardedCache<>(Objects.requireNonNull(config, "config"));
  }

  @Override
  public void invalidate(String key, long revision) {
    entries.asMap().computeIfPresent(key, (k, old) -> old.entry().olderThan(revision) ? null : old);
  }

  @Override
  @Nullable Entry<V> lookup(String key) {
    Stamped<V> stamped = entries.getIfPresent(key);
    return stamped == null ? null : stamped.entry();
  }

  /** Stores {@code entry} where it may replace what the key holds; atomic per key. */
  @Override
  boolean write(String key, Entry<V> entry) {
    boolean[] stored = {false};
    entries
        .asMap()
        .compute(
            key,
            (k, old) -> {
              if (old != null
                  ? !old.entry().replaceableBy(entry)
                  : refusedSinceEviction(k, entry.revision())) {
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
    return (h ^ (h >>> 16)) & (evictedRevisions.length - 1);
  }

  private synchronized void evicted(String key, Stamped<V> stamped) {
    int i = slot(key);
    long revision = stamped.entry().revision();
    if (evictedUntil[i] - config.ticker().read() <= 0) {
      evictedRevisions[i] = revision;
      evictedUntil[i] = stamped.expiresAt();
    } else {
      evictedRevisions[i] = Math.max(evictedRevisions[i], revision);
      evictedUntil[i] =
          evictedUntil[i] - stamped.expiresAt() >= 0 ? evictedUntil[i] : stamped.expiresAt();
    }
  }

  private synchronized boolean refusedSinceEviction(String key, long revision) {
    int i = slot(key);
    return evictedUntil[i] - config.ticker().read() > 0 && revision <= evictedRevisions[i];
  }

  @Override
  public String toString() {
    return "CaffeineRevisionGuardedCache(" + entries.estimatedSize() + " entries)";
  }
}

package io.tidemark.cache;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.tidemark.GtidSet;
import java.util.Optional;

/**
 * A cache of values keyed by business key, each carrying a revision, that never goes back: a newer
 * revision is never replaced by an older one, including by a deletion's tombstone.
 *
 * <p>The race it closes: a slow reader loads revision 1 from the database, a writer commits
 * revision 2 and puts (or deletes) it, and then the slow reader puts revision 1. A plain cache now
 * serves revision 1 until it expires; this one refuses the put, because revision 2 (or its
 * tombstone) is newer. Every implementation passes one contract test suite.
 *
 * <p>Revisions are row revisions from 0 to {@link #MAX_REVISION}; a writer must give each change of
 * a key, deletions included, a higher revision than the last.
 *
 * <p>Revisions keep a cache from going back; GTID sets decide whether an entry is new enough for a
 * request. Each value can carry the GTID set of a state it reflects (after a write, the GTIDs of
 * the unit of work including that commit; after a read, the token the read waited for), and a
 * lookup under a token accepts an entry only when its set contains the token: a value cached before
 * the token's writes, or by a put that lost a race, misses, and the fresher value read through
 * replaces it even at the same revision.
 *
 * <p>Three kinds are made here: {@link #caffeine} in this process's memory, {@link #redis} shared
 * by every instance through a Lua compare-and-set, and {@link #twoTier}, an in-process tier in
 * front of a Redis one, each guarded on its own.
 */
public interface RevisionGuardedCache<V> {

  /**
   * Largest revision, 2<sup>53</sup>: the Redis tier compares revisions in Lua, whose numbers are
   * exact up to there.
   */
  long MAX_REVISION = 1L << 53;

  /**
   * Stores {@code value} at {@code revision}, reflecting a state that contains {@code gtids},
   * unless the key holds a newer revision (value or tombstone), a tombstone at this revision, or a
   * value at this revision with this GTID set.
   *
   * @return whether the value was stored
   * @throws IllegalArgumentException when the revision is out of range
   */
  boolean put(String key, long revision, V value, GtidSet gtids);

  /**
   * Stores {@code value} at {@code revision} with no GTID set: found only by lookups without one.
   */
  default boolean put(String key, long revision, V value) {
    return put(key, revision, value, GtidSet.EMPTY);
  }

  /**
   * The cached value if it has at least {@code minRevision} and its GTID set contains {@code
   * required}; empty when there is none, the key was deleted, the entry is older or reflects less,
   * or the cache could not be read. A miss sends the caller to the database, never to an older
   * value.
   */
  default Optional<CachedValue<V>> get(String key, long minRevision, GtidSet required) {
    return get(key, minRevision, required, GtidSet.EMPTY);
  }

  /**
   * The cached value as {@link #get(String, long, GtidSet)} finds it, unless its entry reflects any
   * of {@code lost}: GTIDs a failover lost, so the value may be one the database no longer holds.
   */
  Optional<CachedValue<V>> get(String key, long minRevision, GtidSet required, GtidSet lost);

  /** The cached value if it has at least {@code minRevision}, whatever state it reflects. */
  default Optional<CachedValue<V>> get(String key, long minRevision) {
    return get(key, minRevision, GtidSet.EMPTY);
  }

  /** The cached value at any revision; for reads without a requirement. */
  default Optional<CachedValue<V>> get(String key) {
    return get(key, 0, GtidSet.EMPTY);
  }

  /**
   * Replaces the entry by a tombstone at {@code revision} unless the key holds that revision or a
   * newer one; the tombstone refuses older puts for the configured tombstone time to live.
   *
   * @return whether the tombstone was stored
   */
  boolean delete(String key, long revision);

  /**
   * Drops a local copy of the entry if it is older than {@code revision}: what a message saying
   * "key changed at revision" does. Losing such a message costs no correctness for reads with a
   * minimum revision, which miss on the older entry anyway; it only delays fresher data for reads
   * without one. A cache that keeps no local copy has nothing to drop.
   */
  default void invalidate(String key, long revision) {}

  /** Calls to a shared store that failed or timed out so far; 0 for a cache in memory only. */
  default long failures() {
    return 0;
  }

  /**
   * A cache in this process's memory, through Caffeine; the time to live, tombstone time to live,
   * size and ticker of {@code config} apply.
   */
  static <V> RevisionGuardedCache<V> caffeine(RevisionGuardedCacheConfig config) {
    return CaffeineRevisionGuardedCache.create(config);
  }

  /** A cache on a standalone or Sentinel-managed Redis, values written by {@code codec}. */
  static <V> RevisionGuardedCache<V> redis(
      StatefulRedisConnection<String, String> connection,
      ValueCodec<V> codec,
      RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(connection, codec, config);
  }

  /** A cache on a Redis Cluster, values written by {@code codec}. */
  static <V> RevisionGuardedCache<V> redis(
      StatefulRedisClusterConnection<String, String> connection,
      ValueCodec<V> codec,
      RevisionGuardedCacheConfig config) {
    return RedisRevisionGuardedCache.create(connection, codec, config);
  }

  /**
   * A cache in this process's memory, with {@code config}, in front of {@code shared}: writes reach
   * the local tier only when Redis stored them, and a local miss reads Redis.
   *
   * @throws IllegalArgumentException when {@code shared} was not made by {@link #redis}
   */
  static <V> RevisionGuardedCache<V> twoTier(
      RevisionGuardedCache<V> shared, RevisionGuardedCacheConfig config) {
    if (!(shared instanceof RedisRevisionGuardedCache<V> redis)) {
      throw new IllegalArgumentException(
          "the shared tier of a two-tier cache is one made by RevisionGuardedCache.redis, not "
              + shared);
    }
    return TwoTierRevisionGuardedCache.of(CaffeineRevisionGuardedCache.create(config), redis);
  }

  /** Checks that {@code revision} is in range and returns it. */
  static long checkRevision(long revision) {
    if (revision < 0 || revision > MAX_REVISION) {
      throw new IllegalArgumentException(
          "revision must be between 0 and " + MAX_REVISION + ": " + revision);
    }
    return revision;
  }
}

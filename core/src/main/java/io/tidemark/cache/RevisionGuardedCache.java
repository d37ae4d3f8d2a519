package io.tidemark.cache;

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

  /** Checks that {@code revision} is in range and returns it. */
  static long checkRevision(long revision) {
    if (revision < 0 || revision > MAX_REVISION) {
      throw new IllegalArgumentException(
          "revision must be between 0 and " + MAX_REVISION + ": " + revision);
    }
    return revision;
  }
}

package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Optional;

/**
 * A cache of values keyed by business key, each carrying a version, that never goes back: a newer
 * version is never replaced by an older one, including by a deletion's tombstone.
 *
 * <p>The race it closes: a slow reader loads version 1 from the database, a writer commits version
 * 2 and puts (or deletes) it, and then the slow reader puts version 1. A plain cache now serves
 * version 1 until it expires; this one refuses the put, because version 2 (or its tombstone) is
 * newer. Every implementation passes one contract test suite.
 *
 * <p>Versions are row revisions from 0 to {@link #MAX_VERSION}; a writer must give each change of a
 * key, deletions included, a higher version than the last.
 *
 * <p>Versions keep a cache from going back; GTID sets decide whether an entry is new enough for a
 * request. Each value can carry the GTID set of a state it reflects (after a write, the GTIDs of
 * the unit of work including that commit; after a read, the token the read waited for), and a
 * lookup under a token accepts an entry only when its set contains the token: a value cached before
 * the token's writes, or by a put that lost a race, misses, and the fresher value read through
 * replaces it even at the same version.
 */
public interface VersionedCache<V> {

  /**
   * Largest version, 2<sup>53</sup>: the Redis tier compares versions in Lua, whose numbers are
   * exact up to there.
   */
  long MAX_VERSION = 1L << 53;

  /**
   * Stores {@code value} at {@code version}, reflecting a state that contains {@code gtids}, unless
   * the key holds a newer version (value or tombstone), a tombstone at this version, or a value at
   * this version with this GTID set.
   *
   * @return whether the value was stored
   * @throws IllegalArgumentException when the version is out of range
   */
  boolean put(String key, long version, V value, GtidSet gtids);

  /**
   * Stores {@code value} at {@code version} with no GTID set: found only by lookups without one.
   */
  default boolean put(String key, long version, V value) {
    return put(key, version, value, GtidSet.EMPTY);
  }

  /**
   * The cached value if it has at least {@code minVersion} and its GTID set contains {@code
   * required}; empty when there is none, the key was deleted, the entry is older or reflects less,
   * or the cache could not be read. A miss sends the caller to the database, never to an older
   * value.
   */
  Optional<Versioned<V>> get(String key, long minVersion, GtidSet required);

  /** The cached value if it has at least {@code minVersion}, whatever state it reflects. */
  default Optional<Versioned<V>> get(String key, long minVersion) {
    return get(key, minVersion, GtidSet.EMPTY);
  }

  /** The cached value at any version; for reads without a requirement. */
  default Optional<Versioned<V>> get(String key) {
    return get(key, 0, GtidSet.EMPTY);
  }

  /**
   * Replaces the entry by a tombstone at {@code version} unless the key holds that version or a
   * newer one; the tombstone refuses older puts for the configured tombstone time to live.
   *
   * @return whether the tombstone was stored
   */
  boolean delete(String key, long version);

  /** Checks that {@code version} is in range and returns it. */
  static long checkVersion(long version) {
    if (version < 0 || version > MAX_VERSION) {
      throw new IllegalArgumentException(
          "version must be between 0 and " + MAX_VERSION + ": " + version);
    }
    return version;
  }
}

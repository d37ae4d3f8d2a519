package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a tier holds for a key: a value with the GTID set it reflects, or a tombstone (no value) at
 * the deletion's version.
 */
record Entry<V>(long version, @Nullable V value, GtidSet gtids) {

  static <V> Entry<V> tombstone(long version) {
    return new Entry<>(version, null, GtidSet.EMPTY);
  }

  boolean isTombstone() {
    return value == null;
  }

  /** Whether a write at {@code version} may replace this entry. */
  boolean olderThan(long version) {
    return this.version < version;
  }

  /**
   * Whether {@code next} may replace this entry: a newer version, or the same version of a value
   * with another GTID set (the row is the same; the set read last is kept, as in Redis, which
   * cannot compare sets: at worst a later request misses and reads through).
   */
  boolean replaceableBy(Entry<V> next) {
    return olderThan(next.version)
        || (version == next.version
            && !isTombstone()
            && !next.isTombstone()
            && !gtids.equals(next.gtids));
  }

  /**
   * The value, when this entry has at least {@code minVersion} and reflects a state that contains
   * {@code required}; a miss sends the caller to the database, never to an older value.
   */
  static <V> Optional<Versioned<V>> visible(
      @Nullable Entry<V> entry, long minVersion, GtidSet required) {
    if (entry == null || entry.version() < minVersion || !entry.gtids().containsAll(required)) {
      return Optional.empty();
    }
    V value = entry.value();
    return value == null ? Optional.empty() : Optional.of(new Versioned<>(entry.version(), value));
  }
}

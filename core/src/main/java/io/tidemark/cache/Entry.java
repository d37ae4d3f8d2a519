package io.tidemark.cache;

import io.tidemark.GtidSet;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a tier holds for a key: a value with the GTID set it reflects, or a tombstone (no value) at
 * the deletion's revision.
 */
record Entry<V>(long revision, @Nullable V value, GtidSet gtids) {

  /** A value at {@code revision}, which must be positive, reflecting {@code gtids}. */
  static <V> Entry<V> value(long revision, V value, GtidSet gtids) {
    RevisionGuardedCache.checkRevision(revision);
    return new Entry<>(
        revision, Objects.requireNonNull(value, "value"), Objects.requireNonNull(gtids));
  }

  static <V> Entry<V> tombstone(long revision) {
    return new Entry<>(revision, null, GtidSet.EMPTY);
  }

  boolean isTombstone() {
    return value == null;
  }

  /** Whether a write at {@code revision} may replace this entry. */
  boolean olderThan(long revision) {
    return this.revision < revision;
  }

  /**
   * Whether {@code next} may replace this entry: a newer revision, or the same revision of a value
   * with another GTID set (the row is the same; the set read last is kept, as in Redis, which
   * cannot compare sets: at worst a later request misses and reads through).
   */
  boolean replaceableBy(Entry<V> next) {
    return olderThan(next.revision)
        || (revision == next.revision
            && !isTombstone()
            && !next.isTombstone()
            && !gtids.equals(next.gtids));
  }

  /**
   * The value, when this entry has at least {@code minRevision}, reflects a state that contains
   * {@code required} and none of {@code lost}; a miss sends the caller to the database, never to an
   * older value.
   */
  static <V> Optional<CachedValue<V>> visible(
      @Nullable Entry<V> entry, long minRevision, GtidSet required, GtidSet lost) {
    if (entry == null
        || entry.revision() < minRevision
        || !entry.gtids().containsAll(required)
        || (!lost.isEmpty() && !entry.gtids().intersection(lost).isEmpty())) {
      return Optional.empty();
    }
    V value = entry.value();
    return value == null
        ? Optional.empty()
        : Optional.of(new CachedValue<>(entry.revision(), value));
  }
}

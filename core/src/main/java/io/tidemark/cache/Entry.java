package io.tidemark.cache;

import org.jspecify.annotations.Nullable;

/** What a tier holds for a key: a value, or a tombstone (no value) at the deletion's version. */
record Entry<V>(long version, @Nullable V value) {

  static <V> Entry<V> tombstone(long version) {
    return new Entry<>(version, null);
  }

  boolean isTombstone() {
    return value == null;
  }

  /** Whether a write at {@code version} may replace this entry. */
  boolean olderThan(long version) {
    return this.version < version;
  }
}

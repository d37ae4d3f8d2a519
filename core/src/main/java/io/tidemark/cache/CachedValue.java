package io.tidemark.cache;

import java.util.Objects;

/**
 * A cached value with the revision it was read at.
 *
 * @param revision the row revision of the value, 0 to {@link RevisionGuardedCache#MAX_REVISION}
 * @param value the value
 */
public record CachedValue<V>(long revision, V value) {

  /** Checks the revision range. */
  public CachedValue {
    RevisionGuardedCache.checkRevision(revision);
    Objects.requireNonNull(value, "value");
  }
}

package io.tidemark.cache;

import java.util.Objects;

/**
 * A cached value with the version it was read at.
 *
 * @param version the row revision of the value, 0 to {@link VersionedCache#MAX_VERSION}
 * @param value the value
 */
public record Versioned<V>(long version, V value) {

  /** Checks the version range. */
  public Versioned {
    VersionedCache.checkVersion(version);
    Objects.requireNonNull(value, "value");
  }
}

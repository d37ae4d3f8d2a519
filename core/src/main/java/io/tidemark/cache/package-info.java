/**
 * Revision-guarded caches: values keyed by business key that carry a revision (a row revision), so
 * that a cache never goes back. {@code put} stores only a newer revision, {@code get} with a
 * minimum revision misses on anything older, and {@code delete} leaves a versioned tombstone, so a
 * slow reader's stale value arriving late is refused.
 *
 * <p>{@link io.tidemark.cache.RevisionGuardedCache} is the role and makes its three kinds: in
 * process ({@code compute}), on Redis (Lua compare-and-set) and two-tier (Caffeine in front of
 * Redis, both guarded).
 */
@NullMarked
package io.tidemark.cache;

import org.jspecify.annotations.NullMarked;

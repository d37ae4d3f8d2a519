/**
 * Version-guarded caches: values keyed by business key that carry a version (a row revision), so
 * that a cache never goes back. {@code put} stores only a newer version, {@code get} with a minimum
 * version misses on anything older, and {@code delete} leaves a versioned tombstone, so a slow
 * reader's stale value arriving late is refused.
 *
 * <p>{@link io.tidemark.cache.VersionedCache} is the role; {@link
 * io.tidemark.cache.CaffeineVersionedCache} (in process, {@code compute}), {@link
 * io.tidemark.cache.RedisVersionedCache} (Lua compare-and-set) and {@link
 * io.tidemark.cache.TwoTierVersionedCache} (Caffeine in front of Redis, both guarded) implement it.
 */
@NullMarked
package io.tidemark.cache;

import org.jspecify.annotations.NullMarked;

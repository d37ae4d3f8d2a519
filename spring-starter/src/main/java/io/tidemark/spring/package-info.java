/**
 * Tidemark for Spring applications. So far: {@link io.tidemark.spring.VersionGuardedCacheManager},
 * which makes {@code @Cacheable} caches of {@link io.tidemark.spring.Revisioned} values never go
 * back to an older revision.
 */
@NullMarked
package io.tidemark.spring;

import org.jspecify.annotations.NullMarked;

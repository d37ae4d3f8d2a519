/**
 * Tidemark for Spring applications: {@link io.tidemark.spring.ReadYourWrites} on methods that must
 * see the caller's writes, {@link io.tidemark.spring.ScopedWrites} to share writes through a token
 * scope, and {@link io.tidemark.spring.RevisionGuardedCacheManager}, which makes {@code @Cacheable}
 * caches of {@link io.tidemark.spring.Revisioned} values never go back to an older revision.
 */
@NullMarked
package io.tidemark.spring;

import org.jspecify.annotations.NullMarked;

/**
 * Routes reads under {@code @ReadYourWrites} to the connection the read path chose, and publishes
 * {@code @ScopedWrites}: the advice, the application's {@code DataSource} as Tidemark hands it out,
 * and the pinned read.
 */
@NullMarked
package io.tidemark.spring.routing;

import org.jspecify.annotations.NullMarked;

/**
 * Helpers shared by Tidemark's packages; never public API, may change in any release.
 *
 * <p>Types here are public only so that sibling packages can use them.
 */
@NullMarked
package io.tidemark.internal;

import org.jspecify.annotations.NullMarked;

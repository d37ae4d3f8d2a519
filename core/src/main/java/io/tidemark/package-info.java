/**
 * Tidemark's public API: GTID sets, signed consistency tokens and the exceptions they raise.
 *
 * <p>Types without a {@code public} modifier are implementation details and may change.
 */
@NullMarked
package io.tidemark;

import org.jspecify.annotations.NullMarked;

/**
 * Tidemark's vocabulary: positions ({@link io.tidemark.GtidSet}, MySQL's GTIDs and PostgreSQL's WAL
 * positions alike), the consistency context a client's reads and writes share, what a read asks for
 * and what it gets ({@link io.tidemark.ConsistencyLevel}, {@link io.tidemark.ReadPolicy}, {@link
 * io.tidemark.Reason}, {@link io.tidemark.ExecutionRecord}), and the exceptions. Tokens are in
 * {@code io.tidemark.token}, the read path in {@code io.tidemark.jdbc}.
 *
 * <p>Types without a {@code public} modifier are implementation details and may change.
 */
@NullMarked
package io.tidemark;

import org.jspecify.annotations.NullMarked;

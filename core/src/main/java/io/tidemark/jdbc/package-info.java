/**
 * Tidemark at the JDBC level, usable without any framework: {@link
 * io.tidemark.jdbc.CapturingDataSource} captures the GTID of every commit on the source into the
 * current {@link io.tidemark.ConsistencyContext}; {@link io.tidemark.jdbc.ConsistentReader} runs
 * reads on a replica only after it executed the context's GTIDs, else as the read's policy says.
 */
@NullMarked
package io.tidemark.jdbc;

import org.jspecify.annotations.NullMarked;

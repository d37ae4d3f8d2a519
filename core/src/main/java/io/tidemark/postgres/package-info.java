/**
 * PostgreSQL's side of Tidemark: a WAL position in the form of a token's positions ({@link
 * io.tidemark.postgres.WalPosition}), and what a server is and has executed ({@link
 * io.tidemark.postgres.PostgresServer}), shared by the read path and the topology's probe.
 */
@NullMarked
package io.tidemark.postgres;

import org.jspecify.annotations.NullMarked;

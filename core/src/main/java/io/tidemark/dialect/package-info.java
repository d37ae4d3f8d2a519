/**
 * Everything that differs between the databases Tidemark reads, behind one sealed {@link
 * io.tidemark.dialect.Dialect} per database: how a server says who it is and what it has executed,
 * a commit's position, the bounded wait, the node probe, a refused write, its JDBC URLs and what
 * its driver offers beyond JDBC ({@link io.tidemark.dialect.DriverSession}). A PostgreSQL position
 * takes a token's form as a {@link io.tidemark.dialect.WalPosition}. The read path, the topology
 * and the starter name no database; adding one means adding its classes here.
 *
 * <p>Engine SPI, not API: public for Tidemark's other packages, and may change in any release.
 */
@NullMarked
package io.tidemark.dialect;

import org.jspecify.annotations.NullMarked;

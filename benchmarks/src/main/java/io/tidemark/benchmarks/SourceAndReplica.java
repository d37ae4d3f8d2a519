package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A source and one replica on loopback with the benchmark's table {@code t (id, v)}, as the
 * benchmarks that run alike on several databases see them ({@link ReplicaReadAfterWrite}, {@link
 * ReplicaFastPath}). Closing it closes the pools and connections it opened and stops the servers.
 */
interface SourceAndReplica extends AutoCloseable {

  /** A pool of {@code size} connections on the source, all opened. */
  HikariDataSource sourcePool(int size);

  /** A pool of {@code size} connections on the replica, all opened, as the starter builds one. */
  HikariDataSource replicaPool(int size);

  /** A connection of its own on the replica, outside any pool. */
  Connection connectReplica() throws SQLException;

  @Override
  void close();
}

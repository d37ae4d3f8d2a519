package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A pool that bounds a check-out itself, validation included, on the caller's thread. An interface
 * of its own, so that asking whether a pool is one needs no pool library on the class path.
 */
interface BoundedCheckout {

  /**
   * A connection within {@code timeoutNanos}.
   *
   * @throws java.sql.SQLTransientConnectionException when none came in time
   */
  Connection connection(long timeoutNanos) throws SQLException;
}

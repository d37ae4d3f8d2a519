package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.SQLException;

/** The PostgreSQL dialect's wait, alone on a pinned connection, for the benchmarks. */
// Public, in core's test jar, for the benchmarks: the dialect stays package-private.
public final class PostgresWaits {

  private PostgresWaits() {}

  /** {@link Dialect#await} of PostgreSQL: whether the standby replayed {@code required} in time. */
  public static boolean await(Connection standby, GtidSet required, long budgetNanos)
      throws SQLException {
    return PostgresDialect.INSTANCE.await(standby, required, budgetNanos);
  }
}

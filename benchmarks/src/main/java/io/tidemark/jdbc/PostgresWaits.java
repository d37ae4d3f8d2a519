package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.SQLException;

/** The PostgreSQL dialect's wait, alone on a pinned connection, for the benchmarks. */
// In core's package to reach the package-private dialect without making it public.
public final class PostgresWaits {

  private PostgresWaits() {}

  /** {@link Dialect#await} of PostgreSQL: whether the standby replayed {@code required} in time. */
  public static boolean await(Connection standby, GtidSet required, long budgetNanos)
      throws SQLException {
    return PostgresDialect.INSTANCE.await(standby, required, budgetNanos);
  }
}

package io.tidemark.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * What PgJDBC knows of a connection's transaction without asking the server; loaded only when
 * PgJDBC is on the class path.
 */
final class PgJdbcTransactions {

  private PgJdbcTransactions() {}

  /**
   * Whether the server has a transaction open on {@code connection}, as PgJDBC last heard; {@code
   * null} when PgJDBC is absent or the connection is not one of its.
   */
  static @Nullable Boolean open(Connection connection) throws SQLException {
    if (!Holder.PGJDBC || !connection.isWrapperFor(BaseConnection.class)) {
      return null;
    }
    return connection.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE;
  }

  /** Looks for PgJDBC once, without loading the classes that link against it. */
  private static final class Holder {
    static final boolean PGJDBC = present();

    private Holder() {}

    private static boolean present() {
      try {
        Class.forName("org.postgresql.core.BaseConnection", false, Holder.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException e) {
        return false;
      }
    }
  }
}

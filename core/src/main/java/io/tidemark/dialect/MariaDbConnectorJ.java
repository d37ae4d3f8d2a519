package io.tidemark.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.mariadb.jdbc.util.constants.ServerStatus;

/** What Tidemark reads of MariaDB Connector/J beyond JDBC; loaded only when it is on the path. */
final class MariaDbConnectorJ {

  private static final boolean PRESENT = present();

  private MariaDbConnectorJ() {}

  /**
   * The server's id of the session behind {@code connection} ({@code CONNECTION_ID()}), as the
   * driver heard it in the server's greeting: no round trip; {@code null} for another driver.
   */
  static @Nullable Long threadId(Connection connection) throws SQLException {
    if (!PRESENT || !connection.isWrapperFor(org.mariadb.jdbc.Connection.class)) {
      return null;
    }
    return connection.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
  }

  /**
   * Whether the server reported an open transaction in its last status flags on {@code connection}:
   * no round trip; {@code null} for another driver.
   */
  static @Nullable Boolean inTransaction(Connection connection) throws SQLException {
    if (!PRESENT || !connection.isWrapperFor(org.mariadb.jdbc.Connection.class)) {
      return null;
    }
    int status =
        connection.unwrap(org.mariadb.jdbc.Connection.class).getContext().getServerStatus();
    return (status & ServerStatus.IN_TRANSACTION) != 0;
  }

  private static boolean present() {
    try {
      Class.forName("org.mariadb.jdbc.Connection", false, MariaDbConnectorJ.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}

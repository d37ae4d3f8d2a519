package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What Tidemark needs from the driver beyond JDBC, for one physical connection: session-state
 * tracking of GTIDs and the server's in-transaction flag. Only MySQL Connector/J offers them; with
 * other drivers {@link #of} returns {@code null} and Tidemark uses plain SQL instead.
 */
interface DriverSession {

  /** Identity of the physical connection, stable across pool check-outs. */
  Object physicalConnection();

  /** Whether the driver parses session-state changes ({@code trackSessionState=true}). */
  boolean tracksSessionState();

  /**
   * Calls {@code listener} with each GTID set the server reports in an OK packet. Returns the
   * object registered with the driver, which holds it only weakly: the caller keeps it reachable
   * for as long as the connection lives, or the driver drops it.
   */
  Object onTrackedGtids(Consumer<String> listener);

  /** Whether the server reported an open transaction in its last status flags. */
  boolean inTransactionOnServer();

  /** The Connector/J session behind {@code connection}, or {@code null} for other drivers. */
  static @Nullable DriverSession of(Connection connection) throws SQLException {
    return Holder.CONNECTOR_J ? ConnectorJSession.unwrap(connection) : null;
  }

  /** Looks for Connector/J once, without loading the class that links against it. */
  final class Holder {
    static final boolean CONNECTOR_J = present();

    private Holder() {}

    private static boolean present() {
      try {
        Class.forName("com.mysql.cj.MysqlConnection", false, Holder.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException e) {
        return false;
      }
    }
  }
}

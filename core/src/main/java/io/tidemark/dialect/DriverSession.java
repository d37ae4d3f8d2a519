package io.tidemark.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What Tidemark needs from the driver beyond JDBC, for one physical connection: session-state
 * tracking of GTIDs and the server's in-transaction flag. Only MySQL Connector/J offers them; with
 * other drivers {@link #of} returns {@code null} and Tidemark uses plain SQL instead.
 */
public interface DriverSession {

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

  /** Whether the server is MariaDB, which speaks MySQL's protocol: no round trip. */
  boolean mariaDb();

  /** The server's id of this connection's session ({@code CONNECTION_ID()}): no round trip. */
  long sessionId();

  /** Whether the server reported an open transaction in its last status flags. */
  boolean inTransactionOnServer();

  /** Whether the physical connection is read-only, as the driver last set it: no round trip. */
  boolean readOnly() throws SQLException;

  /**
   * Sets the physical connection read-only or writable, past any pool wrapping it: the pool does
   * not see the change, so it does not undo it when the connection comes back.
   */
  void readOnly(boolean readOnly) throws SQLException;

  /**
   * Lets the server run several statements sent in one text on this session, or stops it: one round
   * trip ({@code COM_SET_OPTION}). The driver's {@code allowMultiQueries} setting is left as it is.
   */
  void multiStatements(boolean on) throws SQLException;

  /** Whether the driver sends several statements in one text ({@code allowMultiQueries}). */
  boolean allowsMultiQueries();

  /**
   * Whether the driver prepares statements on the server ({@code useServerPrepStmts}, or {@code
   * useCursorFetch}, which needs it): the server prepares one statement per text.
   */
  boolean preparesOnServer();

  /**
   * Whether the server answers a ping within {@code millis}; a connection that does not is left
   * unusable.
   */
  boolean ping(int millis);

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

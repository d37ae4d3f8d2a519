package io.tidemark.dialect;

import com.mysql.cj.NativeSession;
import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;
import com.mysql.cj.protocol.ServerSessionStateController;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@link DriverSession} of MySQL Connector/J; loaded only when Connector/J is on the class path.
 */
final class ConnectorJSession implements DriverSession {

  private final JdbcConnection connection;

  private ConnectorJSession(JdbcConnection connection) {
    this.connection = connection;
  }

  static @Nullable DriverSession unwrap(Connection c) throws SQLException {
    return c.isWrapperFor(JdbcConnection.class)
        ? new ConnectorJSession(c.unwrap(JdbcConnection.class))
        : null;
  }

  @Override
  public Object physicalConnection() {
    return connection;
  }

  /** The server's version as its greeting gave it, such as {@code 5.5.5-10.11.19-MariaDB}. */
  @Override
  public boolean mariaDb() {
    return connection.getServerVersion().toString().contains("MariaDB");
  }

  @Override
  public long sessionId() {
    return connection.getId();
  }

  @Override
  public boolean tracksSessionState() {
    return connection.getPropertySet().getBooleanProperty(PropertyKey.trackSessionState).getValue();
  }

  @Override
  public Object onTrackedGtids(Consumer<String> listener) {
    ServerSessionStateController.SessionStateChangesListener registered =
        changes -> {
          for (ServerSessionStateController.SessionStateChange change :
              changes.getSessionStateChangesList()) {
            if (change.getType() == ServerSessionStateController.SESSION_TRACK_GTIDS) {
              change.getValues().forEach(listener);
            }
          }
        };
    connection.getServerSessionStateController().addSessionStateChangesListener(registered);
    return registered;
  }

  @Override
  public boolean readOnly() throws SQLException {
    return connection.isReadOnly(false);
  }

  @Override
  public void readOnly(boolean readOnly) throws SQLException {
    connection.setReadOnly(readOnly);
  }

  @Override
  public void multiStatements(boolean on) throws SQLException {
    try {
      NativeSession session = (NativeSession) connection.getSession();
      if (on) {
        session.enableMultiQueries();
      } else {
        session.disableMultiQueries();
      }
    } catch (CJException e) {
      throw SQLExceptionsMapping.translateException(e);
    }
  }

  @Override
  public boolean allowsMultiQueries() {
    return connection.getPropertySet().getBooleanProperty(PropertyKey.allowMultiQueries).getValue();
  }

  @Override
  public boolean preparesOnServer() {
    return connection.getPropertySet().getBooleanProperty(PropertyKey.useServerPrepStmts).getValue()
        || connection.getPropertySet().getBooleanProperty(PropertyKey.useCursorFetch).getValue();
  }

  @Override
  public boolean ping(int millis) {
    try {
      connection.pingInternal(false, millis);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public boolean inTransactionOnServer() {
    return connection.getSession().getServerSession().inTransactionOnServer();
  }
}

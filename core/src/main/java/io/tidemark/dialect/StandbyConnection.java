package io.tidemark.dialect;

import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.ReplicaRefusedException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL hot standby's connection as a read's query gets it. A {@code SERIALIZABLE} isolation
 * level is refused when it is set, before anything is sent: the standby would refuse the query's
 * first statement, HikariCP would then drop the connection as broken, and a Spring transaction's
 * rollback on it would fail and hide why. Set as SQL text, or as the server's default, the
 * standby's own refusal tells the same ({@link PostgresDialect#refusedOnReplica}).
 */
final class StandbyConnection implements InvocationHandler {

  private final Connection connection;

  private StandbyConnection(Connection connection) {
    this.connection = connection;
  }

  static Connection wrap(Connection connection) {
    return JdbcProxies.proxy(Connection.class, new StandbyConnection(connection));
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    if (method.getName().equals("setTransactionIsolation")
        && args != null
        && Integer.valueOf(Connection.TRANSACTION_SERIALIZABLE).equals(args[0])) {
      throw new ReplicaRefusedException(
          PostgresDialect.NO_SERIALIZABLE_ON_STANDBY + " (refused before it was sent)",
          PostgresDialect.FEATURE_NOT_SUPPORTED);
    }
    return JdbcProxies.handleCommon(proxy, connection, "Tidemark", method, args);
  }
}

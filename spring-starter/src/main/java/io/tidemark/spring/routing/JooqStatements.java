package io.tidemark.spring.routing;

import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.SqlText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Configuration;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * jOOQ in the automatic mode: a statement jOOQ prepares outside any transaction and other read,
 * whose text is a plain query as {@link SqlText} reads it, runs as a read of its own. jOOQ has no
 * hook around a query's execution, so the connections it acquires here defer: a deferred statement
 * records what jOOQ sets on it, runs through the read path when jOOQ executes it, and hands jOOQ
 * the rows read in full. Everything else runs on a connection of the provider this one wraps, as
 * without Tidemark.
 */
final class JooqStatements implements ConnectionProvider {

  /** The name of these reads in metrics and traces. */
  private static final String READ_NAME = "jOOQ.query";

  private final ConnectionProvider connections;
  private final Configuration configuration;
  private final ReadYourWritesInterceptor reads;

  private JooqStatements(
      ConnectionProvider connections,
      Configuration configuration,
      ReadYourWritesInterceptor reads) {
    this.connections = connections;
    this.configuration = configuration;
    this.reads = reads;
  }

  /**
   * {@code bean}, its connections deferring as above when it is a jOOQ {@code Configuration} or
   * {@code DSLContext}.
   */
  static Object advise(Object bean, ReadYourWritesInterceptor reads) {
    Configuration configuration =
        bean instanceof Configuration c
            ? c
            : bean instanceof DSLContext dsl ? dsl.configuration() : null;
    if (configuration != null
        && configuration.connectionProvider() != null
        && !(configuration.connectionProvider() instanceof JooqStatements)) {
      configuration.set(
          new JooqStatements(configuration.connectionProvider(), configuration, reads));
    }
    return bean;
  }

  @Override
  public Connection acquire() {
    return new DeferringConnection().proxy;
  }

  @Override
  public void release(Connection connection) {
    if (Proxy.isProxyClass(connection.getClass())
        && Proxy.getInvocationHandler(connection) instanceof DeferringConnection deferring) {
      deferring.release();
    } else {
      connections.release(connection);
    }
  }

  /** Whether a statement of {@code sql} prepared now runs as a read of its own. */
  private static boolean readsAlone(String sql) {
    return ReadYourWritesInterceptor.outsideTransactionsAndReads() && SqlText.plainQuery(sql);
  }

  /** Calls {@code method} on {@code target}, as a SQL failure where it threw something checked. */
  /** What {@code prepareStatement} returned, which JDBC says is never {@code null}. */
  private static PreparedStatement prepared(@Nullable Object statement) throws SQLException {
    if (statement instanceof PreparedStatement prepared) {
      return prepared;
    }
    throw new SQLException("the connection prepared no statement: " + statement);
  }

  private static @Nullable Object call(Object target, Method method, @Nullable Object[] args)
      throws SQLException {
    try {
      return JdbcProxies.invoke(target, method, args);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }

  /** A connection that takes one of the wrapped provider's only when a call needs it. */
  private final class DeferringConnection implements InvocationHandler {

    private final Connection proxy =
        (Connection)
            Proxy.newProxyInstance(
                JooqStatements.class.getClassLoader(), new Class<?>[] {Connection.class}, this);
    private @Nullable Connection acquired;
    private boolean closed;

    Connection acquired() {
      if (acquired == null) {
        acquired = connections.acquire();
      }
      return acquired;
    }

    void release() {
      closed = true;
      Connection held = acquired;
      acquired = null;
      if (held != null) {
        connections.release(held);
      }
    }

    @Override
    public @Nullable Object invoke(Object self, Method method, @Nullable Object[] args)
        throws Throwable {
      switch (method.getName()) {
        case "prepareStatement" -> {
          // Not the forms that ask for generated keys: those are for inserts. Not on a connection
          // used before: a transaction jOOQ began on it itself (autocommit off) holds it.
          if (acquired == null
              && args != null
              && args[0] instanceof String sql
              && (args.length == 1 || args[1] instanceof Integer && args.length > 2)
              && readsAlone(sql)) {
            return new DeferredStatement(this, method, args).proxy;
          }
        }
        case "close" -> {
          release();
          return null;
        }
        case "isClosed" -> {
          return closed;
        }
        case "equals" -> {
          return self == args[0];
        }
        case "hashCode" -> {
          return System.identityHashCode(self);
        }
        case "toString" -> {
          return "Tidemark[jOOQ connection" + (acquired == null ? "" : " " + acquired) + "]";
        }
        default -> {}
      }
      return JdbcProxies.handleCommon(self, acquired(), "Tidemark", method, args);
    }
  }

  /**
   * A statement that runs when executed, through the read path: what jOOQ set on it is replayed on
   * the read's connection. A call it does not know makes it a statement of the wrapped provider's
   * connection, prepared and set up as jOOQ asked.
   */
  private final class DeferredStatement implements InvocationHandler {

    private final DeferringConnection connection;
    private final Method prepare;
    private final Object[] prepareArgs;
    private final List<Call> calls = new ArrayList<>();
    private final PreparedStatement proxy;
    private @Nullable PreparedStatement real;
    private @Nullable ResultSet rows;
    private boolean closed;

    DeferredStatement(DeferringConnection connection, Method prepare, Object[] prepareArgs) {
      this.connection = connection;
      this.prepare = prepare;
      this.prepareArgs = prepareArgs;
      this.proxy =
          (PreparedStatement)
              Proxy.newProxyInstance(
                  JooqStatements.class.getClassLoader(),
                  new Class<?>[] {PreparedStatement.class},
                  this);
    }

    @Override
    public @Nullable Object invoke(Object self, Method method, @Nullable Object[] args)
        throws Throwable {
      String name = method.getName();
      if (real != null && !name.equals("getConnection")) {
        return JdbcProxies.handleCommon(self, real, "Tidemark", method, args);
      }
      boolean noArgs = args == null || args.length == 0;
      switch (name) {
        case "execute", "executeQuery" -> {
          if (noArgs) {
            return execute(method, args);
          }
        }
        case "getResultSet" -> {
          return rows;
        }
        case "getMoreResults" -> {
          rows = null;
          return false;
        }
        case "getUpdateCount" -> {
          return -1;
        }
        case "getLargeUpdateCount" -> {
          return -1L;
        }
        case "getConnection" -> {
          return connection.proxy;
        }
        case "close" -> {
          closed = true;
          rows = null;
          return null;
        }
        case "isClosed" -> {
          return closed;
        }
        case "getWarnings", "clearWarnings", "cancel" -> {
          return null;
        }
        case "isWrapperFor" -> {
          if (((Class<?>) args[0]).isInstance(self)) {
            return true;
          }
        }
        case "equals" -> {
          return self == args[0];
        }
        case "hashCode" -> {
          return System.identityHashCode(self);
        }
        case "toString" -> {
          return "Tidemark[jOOQ read]";
        }
        default -> {
          if (name.startsWith("set") || name.equals("clearParameters")) {
            calls.add(new Call(method, args));
            return null;
          }
        }
      }
      return JdbcProxies.handleCommon(self, real(), "Tidemark", method, args);
    }

    /** Reads through the read path; run as without Tidemark when the read-only session refuses. */
    private @Nullable Object execute(Method method, @Nullable Object[] args) throws Throwable {
      Object answer =
          reads.readStatement(
              READ_NAME, this::readOn, () -> JdbcProxies.invoke(real(), method, args));
      if (answer instanceof Rows read) {
        rows = read.rows();
        return method.getName().equals("execute") ? Boolean.TRUE : rows;
      }
      return answer;
    }

    /** The statement's rows on {@code read}, held in full: the read's connection is then gone. */
    private Rows readOn(Connection read) throws SQLException {
      try (PreparedStatement statement = prepared(call(read, prepare, prepareArgs))) {
        for (Call set : calls) {
          call(statement, set.method(), set.args());
        }
        try (ResultSet resultSet = statement.executeQuery()) {
          return new Rows(
              DSL.using(read, configuration.dialect()).fetch(resultSet).intoResultSet());
        }
      }
    }

    /** The wrapped provider's statement, prepared and set up as jOOQ asked of this one. */
    private PreparedStatement real() throws SQLException {
      if (real == null) {
        PreparedStatement prepared = prepared(call(connection.acquired(), prepare, prepareArgs));
        for (Call set : calls) {
          call(prepared, set.method(), set.args());
        }
        real = prepared;
      }
      return real;
    }
  }

  private record Call(Method method, @Nullable Object[] args) {}

  private record Rows(ResultSet rows) {}
}

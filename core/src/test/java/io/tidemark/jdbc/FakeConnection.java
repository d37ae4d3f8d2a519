package io.tidemark.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One physical JDBC connection played by proxies, its statements answered by a {@link Server}. It
 * logs, in order, every call that ends or changes a transaction and every statement sent, with its
 * bound parameters, so tests can check what reached the server and when.
 *
 * <p>{@link #pool()} hands out this same connection each time, like a pool of one.
 */
final class FakeConnection {

  /** Answers one statement with the single value of its one-row result, or null. */
  @FunctionalInterface
  interface Server {
    @Nullable Object answer(Sent statement) throws SQLException;
  }

  /** A statement as the server received it. */
  record Sent(String sql, Map<Integer, @Nullable Object> parameters, int queryTimeout) {

    @Nullable Object parameter(int index) {
      return parameters.get(index);
    }

    boolean contains(String fragment) {
      return sql.contains(fragment);
    }
  }

  private final Server server;
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final List<Sent> sent = new CopyOnWriteArrayList<>();
  private volatile Connection connection;
  private final DataSource pool;
  private final DataSource boundedPool;
  private volatile boolean recording = true;
  private volatile boolean autoCommit = true;
  private volatile boolean readOnly;
  private int networkTimeoutMillis;
  private @Nullable SQLException commitFailure;
  private volatile @Nullable SQLException refusal;
  private volatile @Nullable SQLException unboundFailure;

  FakeConnection(Server server) {
    this.server = server;
    this.connection = proxy(Connection.class, this::onConnection, new Class<?>[] {});
    this.pool = proxy(DataSource.class, this::onPool, new Class<?>[] {AutoCloseable.class});
    this.boundedPool =
        proxy(
            DataSource.class,
            this::onPool,
            new Class<?>[] {AutoCloseable.class, BoundedCheckout.class});
  }

  /** The connection as a driver would hand it out. */
  Connection connection() {
    return connection;
  }

  /**
   * Replaces the connection {@link #pool()} hands out with a new one, as a server restart (which
   * ends every connection) makes a pool do.
   */
  void reconnect() {
    connection = proxy(Connection.class, this::onConnection, new Class<?>[] {});
  }

  /** A data source whose every {@code getConnection} returns {@link #connection()}. */
  DataSource pool() {
    return pool;
  }

  /**
   * {@link #pool()} as a pool that bounds its check-outs itself ({@link BoundedCheckout}, as those
   * of {@link ReplicaPools}), which a read asks on its own thread.
   */
  DataSource boundedPool() {
    return boundedPool;
  }

  /** Leaves a transaction open, as a careless earlier user of a pooled connection would. */
  void leaveTransactionOpen() {
    autoCommit = false;
  }

  /** Makes {@link #pool()} fail every {@code getConnection} with {@code error}. */
  /** Makes every {@code commit()} throw {@code error}, as when the link drops mid-commit. */
  void failCommits(SQLException error) {
    commitFailure = error;
  }

  /** Makes every {@code setNetworkTimeout} back to no bound throw {@code error}. */
  void failRemovingNetworkTimeout(SQLException error) {
    unboundFailure = error;
  }

  void refuseConnections(SQLException error) {
    refusal = error;
  }

  /**
   * Keeps {@link #log()} and {@link #sent()} empty from now on: over the millions of reads of a
   * benchmark they would grow without end and cost more than the calls they record.
   */
  FakeConnection unrecorded() {
    recording = false;
    return this;
  }

  /** Calls and SQL texts in order: {@code getConnection()}, {@code commit()}, the SQL, ... */
  List<String> log() {
    return List.copyOf(log);
  }

  /** Every statement sent, in order. */
  List<Sent> sent() {
    return List.copyOf(sent);
  }

  /** The statements sent whose SQL contains {@code fragment}, in order. */
  List<Sent> sent(String fragment) {
    List<Sent> matching = new ArrayList<>();
    for (Sent s : sent) {
      if (s.contains(fragment)) {
        matching.add(s);
      }
    }
    return matching;
  }

  /** The position in {@link #log()} of the first entry containing {@code fragment}, or -1. */
  int firstInLog(String fragment) {
    List<String> entries = log();
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).contains(fragment)) {
        return i;
      }
    }
    return -1;
  }

  private @Nullable Object onConnection(Object proxy, Method method, Object[] args)
      throws SQLException {
    switch (method.getName()) {
      case "createStatement" -> {
        return statement(Statement.class, null);
      }
      case "prepareStatement" -> {
        return statement(PreparedStatement.class, (String) args[0]);
      }
      case "prepareCall" -> {
        return statement(CallableStatement.class, (String) args[0]);
      }
      case "getMetaData" -> {
        return Proxy.newProxyInstance(
            FakeConnection.class.getClassLoader(),
            new Class<?>[] {DatabaseMetaData.class},
            (metaData, m, a) ->
                switch (m.getName()) {
                  case "getDatabaseProductName" -> "MySQL";
                  case "getDatabaseProductVersion" -> "8.0.15";
                  default -> common(metaData, m, a);
                });
      }
      case "getAutoCommit" -> {
        return autoCommit;
      }
      case "setReadOnly" -> {
        readOnly = recordedFlag(method, args);
        return null;
      }
      case "isReadOnly" -> {
        return readOnly;
      }
      case "setAutoCommit" -> {
        autoCommit = recordedFlag(method, args);
        return null;
      }
      case "commit" -> {
        record("commit()");
        if (commitFailure != null) {
          throw commitFailure;
        }
        return null;
      }
      case "rollback", "close", "abort" -> {
        record(method.getName() + (args.length == 0 ? "()" : "(...)"));
        return null;
      }
      case "isClosed" -> {
        return false;
      }
      case "getNetworkTimeout" -> {
        return networkTimeoutMillis;
      }
      case "setNetworkTimeout" -> {
        SQLException error = unboundFailure;
        if (error != null && (Integer) args[1] == 0) {
          throw error;
        }
        networkTimeoutMillis = (Integer) args[1];
        return null;
      }
      default -> {
        return common(proxy, method, args);
      }
    }
  }

  /** The socket read bound the code under test set last, in milliseconds; 0 is none. */
  int networkTimeoutMillis() {
    return networkTimeoutMillis;
  }

  private @Nullable Object onPool(Object proxy, Method method, Object[] args) throws SQLException {
    switch (method.getName()) {
      case "getConnection", "connection" -> {
        record("getConnection()");
        SQLException error = refusal;
        if (error != null) {
          throw error;
        }
        return connection;
      }
      case "getLoginTimeout" -> {
        return 0;
      }
      case "getLogWriter", "setLogWriter", "setLoginTimeout", "close" -> {
        return null;
      }
      case "getParentLogger" -> throw new SQLFeatureNotSupportedException("no logger");
      default -> {
        return common(proxy, method, args);
      }
    }
  }

  private <T extends Statement> T statement(Class<T> type, @Nullable String preparedSql) {
    Map<Integer, @Nullable Object> parameters = new HashMap<>();
    List<Sent> batch = new ArrayList<>();
    int[] queryTimeout = {0};
    Object[] lastResult = {null};
    InvocationHandler handler =
        (proxy, method, arguments) -> {
          Object[] args = arguments == null ? new Object[0] : arguments;
          String name = method.getName();
          if (name.startsWith("set") && name.length() > 3 && args.length == 2) {
            boolean nullValue = name.equals("setNull");
            parameters.put((Integer) args[0], nullValue ? null : args[1]);
            return null;
          }
          switch (name) {
            case "setQueryTimeout" -> {
              queryTimeout[0] = (Integer) args[0];
              return null;
            }
            case "getQueryTimeout" -> {
              return queryTimeout[0];
            }
            case "clearParameters" -> {
              parameters.clear();
              return null;
            }
            case "executeQuery" -> {
              return resultSet(send(sqlOf(args, preparedSql), parameters, queryTimeout[0]));
            }
            case "execute" -> {
              lastResult[0] = send(sqlOf(args, preparedSql), parameters, queryTimeout[0]);
              return lastResult[0] != null;
            }
            case "getResultSet" -> {
              Object result = lastResult[0];
              lastResult[0] = null;
              return result == null ? null : resultSet(result);
            }
            case "executeUpdate" -> {
              send(sqlOf(args, preparedSql), parameters, queryTimeout[0]);
              return 1;
            }
            case "executeLargeUpdate" -> {
              send(sqlOf(args, preparedSql), parameters, queryTimeout[0]);
              return 1L;
            }
            case "addBatch" -> {
              Map<Integer, @Nullable Object> bound = new HashMap<>();
              if (args.length == 0) {
                bound.putAll(parameters);
              }
              batch.add(new Sent(sqlOf(args, preparedSql), bound, 0));
              return null;
            }
            case "clearBatch" -> {
              batch.clear();
              return null;
            }
            case "executeBatch" -> {
              return executeBatch(batch, queryTimeout[0]);
            }
            case "getConnection" -> {
              return connection;
            }
            default -> {
              return common(proxy, method, args);
            }
          }
        };
    return type.cast(
        Proxy.newProxyInstance(
            FakeConnection.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static String sqlOf(Object[] args, @Nullable String preparedSql) {
    if (args.length > 0) {
      return (String) args[0];
    }
    if (preparedSql == null) {
      throw new IllegalStateException("a plain statement executed without SQL");
    }
    return preparedSql;
  }

  /** The flag a setter was called with, the call logged as {@code name(flag)}. */
  private boolean recordedFlag(Method method, Object[] args) {
    record(method.getName() + "(" + args[0] + ")");
    return (Boolean) args[0];
  }

  /** Logs a call the connection or pool got, while the test records. */
  private void record(String call) {
    if (recording) {
      log.add(call);
    }
  }

  private @Nullable Object send(String sql, Map<Integer, @Nullable Object> parameters, int timeout)
      throws SQLException {
    Sent statement = new Sent(sql, Collections.unmodifiableMap(new HashMap<>(parameters)), timeout);
    if (recording) {
      sent.add(statement);
      log.add(sql);
    }
    return server.answer(statement);
  }

  /** Runs every statement of the batch, like a driver that continues after an error. */
  private int[] executeBatch(List<Sent> batch, int timeout) throws SQLException {
    int[] counts = new int[batch.size()];
    SQLException failure = null;
    for (int i = 0; i < counts.length; i++) {
      try {
        send(batch.get(i).sql(), batch.get(i).parameters(), timeout);
        counts[i] = 1;
      } catch (SQLException e) {
        counts[i] = Statement.EXECUTE_FAILED;
        failure = e;
      }
    }
    batch.clear();
    if (failure != null) {
      throw new BatchUpdateException(failure.getMessage(), failure.getSQLState(), counts, failure);
    }
    return counts;
  }

  /**
   * A one-row result holding {@code answer}: the value of every column, or with an {@code Object[]}
   * the value of each column in turn.
   */
  private static ResultSet resultSet(@Nullable Object answer) {
    boolean[] read = {false};
    @Nullable Object[] last = {null};
    InvocationHandler handler =
        (proxy, method, arguments) -> {
          Object[] args = arguments == null ? new Object[0] : arguments;
          Object value =
              answer instanceof Object[] row && args.length > 0 && args[0] instanceof Integer column
                  ? row[column - 1]
                  : answer;
          switch (method.getName()) {
            case "next" -> {
              boolean first = !read[0];
              read[0] = true;
              return first;
            }
            case "getString" -> {
              last[0] = value;
              return value == null ? null : value.toString();
            }
            case "getInt" -> {
              last[0] = value;
              return value == null ? 0 : (int) number(value).longValue();
            }
            case "getLong" -> {
              last[0] = value;
              return value == null ? 0L : number(value).longValue();
            }
            case "getBigDecimal" -> {
              last[0] = value;
              return value == null ? null : new BigDecimal(value.toString());
            }
            case "getObject" -> {
              last[0] = value;
              return value;
            }
            case "wasNull" -> {
              return last[0] == null;
            }
            default -> {
              return common(proxy, method, args);
            }
          }
        };
    return (ResultSet)
        Proxy.newProxyInstance(
            FakeConnection.class.getClassLoader(), new Class<?>[] {ResultSet.class}, handler);
  }

  private static Number number(Object value) {
    return value instanceof Number n ? n : Long.valueOf(value.toString());
  }

  /**
   * What every fake answers alike: wrapper checks, identity, and closing, which only the connection
   * records; anything else is unexpected.
   */
  private static @Nullable Object common(Object proxy, Method method, Object[] args)
      throws SQLException {
    switch (method.getName()) {
      case "close" -> {
        return null;
      }
      case "isClosed" -> {
        return false;
      }
      case "isWrapperFor" -> {
        return ((Class<?>) args[0]).isInstance(proxy);
      }
      case "unwrap" -> {
        Class<?> type = (Class<?>) args[0];
        if (type.isInstance(proxy)) {
          return proxy;
        }
        throw new SQLException("not a wrapper for " + type.getName());
      }
      case "equals" -> {
        return proxy == args[0];
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "toString" -> {
        return "Fake" + proxy.getClass().getInterfaces()[0].getSimpleName();
      }
      default ->
          throw new UnsupportedOperationException(
              "not played by the fake: "
                  + method.getDeclaringClass().getSimpleName()
                  + "."
                  + method.getName());
    }
  }

  @FunctionalInterface
  private interface Handler {
    @Nullable Object handle(Object proxy, Method method, Object[] args) throws SQLException;
  }

  private static <T> T proxy(Class<T> type, Handler handler, Class<?>[] more) {
    Class<?>[] interfaces = new Class<?>[more.length + 1];
    interfaces[0] = type;
    System.arraycopy(more, 0, interfaces, 1, more.length);
    return type.cast(
        Proxy.newProxyInstance(
            FakeConnection.class.getClassLoader(),
            interfaces,
            (proxy, method, args) ->
                handler.handle(proxy, method, args == null ? new Object[0] : args)));
  }
}

package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.internal.Failures;
import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.SocketTimeout;
import io.tidemark.internal.SqlText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The connection a read's query runs on. A socket bound applies to each socket read, so one set
 * before the query would give every statement of a query that runs several the whole time left:
 * here each statement's reads are bounded anew by what is left until the end of the query's time on
 * this node, at least a floor (the read path chose to run the query); a later statement begun after
 * the read's deadline is refused, since it could only overrun. On the source, where the {@code
 * tidemark:source} hint has done its work, statements are sent without it ({@link
 * SqlText#withoutHint}); on a replica the text is left to the {@link SourceOnlyStatements} guard
 * beneath, which refuses a hinted statement.
 */
final class DeadlineBound implements InvocationHandler {

  private final Connection connection;
  private final Deadline end;
  private final Deadline deadline;
  private final Supplier<RuntimeException> expired;
  private final Supplier<@Nullable ServerCancel> cancels;
  private final boolean onSource;
  private @Nullable ServerCancel cancel;
  private boolean begun;

  /**
   * @param end when the query's time on this node ends: its statements' socket reads are cut then
   * @param deadline the read's deadline
   * @param expired what a statement begun after the deadline throws
   * @param cancels how a statement cut by the bound is stopped on the server, asked before the
   *     first statement runs (a pool may close a connection that failed); {@code null}: it cannot
   *     be
   * @param onSource whether {@code connection} is the source's, whose statements are sent without
   *     the hint
   */
  DeadlineBound(
      Connection connection,
      Deadline end,
      Deadline deadline,
      Supplier<RuntimeException> expired,
      Supplier<@Nullable ServerCancel> cancels,
      boolean onSource) {
    this.connection = connection;
    this.end = end;
    this.deadline = deadline;
    this.expired = expired;
    this.cancels = cancels;
    this.onSource = onSource;
  }

  /** The connection the read's query is given. */
  Connection connection() {
    return JdbcProxies.proxy(Connection.class, this);
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    return switch (method.getName()) {
      case "createStatement", "prepareStatement", "prepareCall" ->
          statement(
              (Statement) JdbcProxies.create(connection, method, sent(args)), (Connection) proxy);
      default -> JdbcProxies.handleCommon(proxy, connection, "Tidemark", method, args);
    };
  }

  private Statement statement(Statement statement, Connection connectionProxy) {
    InvocationHandler bounded =
        (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("getConnection")) {
            return connectionProxy;
          }
          if (name.startsWith("execute")) {
            if (begun && deadline.isExpired()) {
              throw expired.get();
            }
            begun = true;
            if (cancel == null) {
              cancel = cancels.get();
            }
            SocketTimeout.tighten(connection, SocketTimeout.millisLeft(end.remaining()));
            try {
              return JdbcProxies.handleCommon(proxy, statement, "Tidemark", method, sent(args));
            } catch (SQLException e) {
              if (cancel != null && cutBySocketBound(e)) {
                cancel.send();
              }
              throw e;
            }
          }
          return JdbcProxies.handleCommon(
              proxy, statement, "Tidemark", method, name.equals("addBatch") ? sent(args) : args);
        };
    return JdbcProxies.proxy(statement, bounded);
  }

  private @Nullable Object[] sent(@Nullable Object[] args) {
    return onSource ? SqlText.withoutHint(args) : args;
  }

  /** Whether the connection failed because a socket read ran out of time. */
  private static boolean cutBySocketBound(SQLException e) {
    return Failures.isConnectionFailure(e)
        && Failures.find(e, SocketTimeoutException.class) != null;
  }
}

package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.SocketTimeout;
import io.tidemark.internal.SqlText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * Proxy handler of a checked-out source connection (and of its statements), the one layer Tidemark
 * puts on a write connection. Its parts: every failure of the connection or a statement passes
 * through the data source's {@link SourceFailures} first (a refusal as read-only becomes a refused
 * write, and the topology looks again); with a {@link CaptureSession}, it tells the session when
 * statements ran and transactions ended, and the session decides. Its statements then reach the
 * server without the {@code tidemark:source} hint ({@link SqlText#withoutHint}). With a deadline,
 * each statement, commit and rollback has what is left of it for every socket read ({@link
 * SocketTimeout#millisLeft}), and closing restores the pool's bound.
 */
final class CapturingConnectionHandler implements InvocationHandler {

  private final Connection target;
  private final SourceFailures failures;

  /** The capture, or {@code null} for a connection checked out with no context bound. */
  private final @Nullable CaptureSession session;

  private final @Nullable Deadline deadline;
  private final @Nullable SocketTimeout bound;

  /** Whether a statement or the commit lost the connection: the server rolled back then. */
  private boolean lost;

  private CapturingConnectionHandler(
      Connection target,
      SourceFailures failures,
      @Nullable CaptureSession session,
      @Nullable Deadline deadline,
      @Nullable SocketTimeout bound) {
    this.target = target;
    this.failures = failures;
    this.session = session;
    this.deadline = deadline;
    this.bound = bound;
  }

  /**
   * @param deadline when the write must end, or {@code null}
   * @param bound the socket bound set on {@code target} for {@code deadline}, restored on close
   */
  static Connection proxy(
      Connection target,
      SourceFailures failures,
      CaptureSession session,
      @Nullable Deadline deadline,
      @Nullable SocketTimeout bound) {
    return JdbcProxies.proxy(
        Connection.class,
        new CapturingConnectionHandler(target, failures, session, deadline, bound));
  }

  /** {@code target} with no capture: its failures pass through {@code failures} only. */
  static Connection uncaptured(Connection target, SourceFailures failures) {
    return JdbcProxies.proxy(
        Connection.class, new CapturingConnectionHandler(target, failures, null, null, null));
  }

  /** Bounds the socket reads of the next call by what is left of the deadline. */
  private void tighten() throws SQLException {
    if (deadline != null) {
      SocketTimeout.tighten(target, SocketTimeout.millisLeft(deadline.remaining()));
    }
  }

  /**
   * What {@link CaptureSession#atFirstStatement()} says of {@code connection}, or {@code null} when
   * it is not a capturing connection.
   */
  static @Nullable GtidSet atFirstStatement(Connection connection) {
    if (Proxy.isProxyClass(connection.getClass())
        && Proxy.getInvocationHandler(connection) instanceof CapturingConnectionHandler handler
        && handler.session != null) {
      return handler.session.atFirstStatement();
    }
    return null;
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    CaptureSession session = this.session;
    if (session == null) {
      return switch (method.getName()) {
        case "createStatement", "prepareStatement", "prepareCall" ->
            statementProxy(create(method, args), (Connection) proxy, null, null);
        default -> common(proxy, target, method, args);
      };
    }
    switch (method.getName()) {
      case "commit" -> {
        commit(session, method, args);
        return null;
      }
      case "setAutoCommit" -> {
        // Turning autocommit on inside a transaction commits it.
        if (Boolean.TRUE.equals(args[0]) && !target.getAutoCommit()) {
          commit(session, method, args);
        } else {
          call(target, method, args);
        }
        return null;
      }
      case "rollback" -> {
        if (args == null && lost) {
          rollbackLost(session, method);
          return null;
        }
        tighten();
        call(target, method, args);
        if (args == null) {
          session.afterRollback();
        }
        return null;
      }
      case "setReadOnly" -> {
        call(target, method, args);
        session.readOnly(Boolean.TRUE.equals(args[0]));
        return null;
      }
      case "close" -> {
        session.close();
        if (bound != null) {
          bound.close();
        }
        return call(target, method, args);
      }
      case "createStatement", "prepareStatement", "prepareCall" -> {
        String sql = method.getName().equals("createStatement") ? null : (String) args[0];
        return statementProxy(
            create(method, SqlText.withoutHint(args)), (Connection) proxy, session, sql);
      }
      default -> {
        return common(proxy, target, method, args);
      }
    }
  }

  /** Calls {@code method} on the connection or a statement of it; a failure passes the hook. */
  private @Nullable Object call(Object on, Method method, @Nullable Object @Nullable [] args)
      throws Throwable {
    try {
      return JdbcProxies.invoke(on, method, args);
    } catch (SQLException e) {
      throw failures.failed(target, e);
    }
  }

  private Statement create(Method method, @Nullable Object[] args) throws Throwable {
    try {
      return (Statement) JdbcProxies.create(target, method, args);
    } catch (SQLException e) {
      throw failures.failed(target, e);
    }
  }

  private @Nullable Object common(Object proxy, Object on, Method method, @Nullable Object[] args)
      throws Throwable {
    try {
      return JdbcProxies.handleCommon(proxy, on, "Tidemark", method, args);
    } catch (SQLException e) {
      throw failures.failed(target, e);
    }
  }

  private void commit(CaptureSession session, Method method, @Nullable Object[] args)
      throws Throwable {
    session.beforeCommit();
    tighten();
    try {
      call(target, method, args);
    } catch (Throwable failed) {
      noteLoss(failed);
      session.commitFailed(failed);
      throw CommitOutcomeUnknownException.ifConnectionLost(failed);
    }
    session.afterCommit();
  }

  /**
   * The rollback of a transaction whose connection was lost: the server rolled it back when it lost
   * the connection, and the pool has likely closed it since. A failure of this rollback, thrown,
   * would take the place of the failure that lost the connection (Spring's transaction managers
   * throw the rollback's), turning a write known not to have committed into an untyped error.
   */
  private void rollbackLost(CaptureSession session, Method method) throws Throwable {
    try {
      call(target, method, null);
    } catch (SQLException alreadyRolledBack) {
      // As above: nothing is left to roll back.
    }
    session.afterRollback();
  }

  private void noteLoss(Throwable failed) {
    if (failed instanceof SQLException sql && CommitOutcomeUnknownException.lostConnection(sql)) {
      lost = true;
    }
  }

  private Statement statementProxy(
      Statement statement,
      Connection connectionProxy,
      @Nullable CaptureSession session,
      @Nullable String preparedSql) {
    return JdbcProxies.proxy(
        statement, new StatementHandler(statement, connectionProxy, session, preparedSql));
  }

  private final class StatementHandler implements InvocationHandler {
    private final Statement statement;
    private final Connection connectionProxy;
    private final @Nullable CaptureSession session;
    private final @Nullable String preparedSql;

    StatementHandler(
        Statement statement,
        Connection connectionProxy,
        @Nullable CaptureSession session,
        @Nullable String preparedSql) {
      this.statement = statement;
      this.connectionProxy = connectionProxy;
      this.session = session;
      this.preparedSql = preparedSql;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
        throws Throwable {
      String name = method.getName();
      if (name.equals("getConnection")) {
        return connectionProxy;
      }
      CaptureSession session = this.session;
      if (session == null) {
        return common(proxy, statement, method, args);
      }
      if (args != null && args.length > 0 && args[0] instanceof String sql) {
        session.statementText(sql); // execute(sql), addBatch(sql)
      }
      if (name.equals("addBatch")) {
        return common(proxy, statement, method, SqlText.withoutHint(args));
      }
      if (!name.startsWith("execute")) {
        return common(proxy, statement, method, args);
      }
      if (preparedSql != null) {
        session.statementText(preparedSql);
      }
      boolean autoCommit = session.beforeStatement();
      tighten();
      Object result;
      try {
        result = call(statement, method, SqlText.withoutHint(args));
      } catch (Throwable failed) {
        noteLoss(failed);
        boolean mayHaveWritten = !name.equals("executeQuery") || session.rowsMayHideWrites();
        // In autocommit a write commits as it runs: its answer lost, so is its outcome.
        Throwable answer =
            autoCommit && mayHaveWritten
                ? CommitOutcomeUnknownException.ifConnectionLost(failed)
                : failed;
        if (answer != failed) {
          session.commitFailed(failed);
          throw answer;
        }
        // A batch, or a procedure in autocommit, can fail after some of its statements committed.
        try {
          session.afterStatement(mayHaveWritten);
        } catch (SQLException alsoFailed) {
          failed.addSuppressed(alsoFailed);
        }
        throw failed;
      }
      // A statement that returned rows may have written all the same (a CALL, a function that
      // inserts, run through executeQuery too): only session tracking tells.
      boolean returnedRows = name.equals("executeQuery") || Boolean.TRUE.equals(result);
      session.afterStatement(!returnedRows || session.rowsMayHideWrites());
      return result;
    }
  }
}

package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.Failures;
import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.SqlText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A replica connection whose wait for the read's token travels with the read's first query: the
 * wait and the query go to the server as one text ({@link Dialect#waitThen}), one round trip, and
 * the query's rows are handed out only when the wait returned in time. A first statement that is no
 * plain query waits alone first, as does one the dialect cannot send with the wait. Once the wait
 * did not return in time, or failed, no statement runs on the connection: the read's attempt on
 * this replica is over, whatever its query does with the failure it is thrown.
 *
 * <p>A statement is prepared on the server's connection when it is executed, with the parameters
 * and settings recorded until then; one whose use before that needs the driver (its metadata, say)
 * is prepared at once, after a wait of its own.
 */
final class PipelinedWait implements InvocationHandler {

  /** How the wait ended, if it did. */
  enum State {
    PENDING,
    REACHED,
    NOT_REACHED,
    FAILED
  }

  /** Told when the wait is sent and when it ended, on the read's own thread. */
  interface Observer {

    /** The wait is sent, alone or with the query. */
    void waiting();

    /** The wait ended after {@code nanos}: {@code reached} when the replica executed the token. */
    void ended(boolean reached, long nanos);

    /** What the wait saw the replica had executed, when it tells. */
    void seen(GtidSet executed);

    /**
     * Whether other reads wait for what this wait sees: only then is it worth the wait's while to
     * tell ({@link #seen}).
     */
    boolean watched();

    /** Where a wait sent now tells what it saw: {@code null} unless other reads wait for it. */
    default @Nullable Consumer<GtidSet> seenIfWatched() {
      return watched() ? this::seen : null;
    }

    /** The session took the text of the wait and the query for one statement. */
    void takenAsOne();
  }

  /** What the read's query is thrown once the wait did not return in time, or failed. */
  static final class NotReached extends SQLException {
    private static final long serialVersionUID = 1L;

    NotReached(String message, @Nullable Throwable cause) {
      super(message, "HYT00", cause);
    }
  }

  private final Connection connection;
  private final Dialect dialect;
  private final GtidSet required;
  private final LongSupplier budgetNanos;
  private final Observer observer;
  private final Ticker ticker;
  private final boolean preparedWithWait;
  private State state = State.PENDING;
  private @Nullable SQLException failure;

  /** Told what the server had executed by the wait of the text sent, if it was made to tell. */
  private @Nullable Consumer<GtidSet> told;

  private long sentBudgetNanos;

  /**
   * @param connection the replica's connection, whose session runs several statements of one text
   * @param budgetNanos the time the wait may take, asked when it is sent
   * @param preparedWithWait whether a prepared statement's text may carry the wait: not where the
   *     driver prepares statements on the server, which prepares one statement per text
   */
  PipelinedWait(
      Connection connection,
      Dialect dialect,
      GtidSet required,
      LongSupplier budgetNanos,
      Observer observer,
      Ticker ticker,
      boolean preparedWithWait) {
    this.connection = connection;
    this.dialect = dialect;
    this.required = required;
    this.budgetNanos = budgetNanos;
    this.observer = observer;
    this.ticker = ticker;
    this.preparedWithWait = preparedWithWait;
  }

  /** The connection the read's query is given. */
  Connection connection() {
    return JdbcProxies.proxy(Connection.class, this);
  }

  /** Whether the wait ended without the token: it did not return in time, or it failed. */
  boolean endedWithoutToken() {
    return state == State.NOT_REACHED || state == State.FAILED;
  }

  State state() {
    return state;
  }

  /** Why the wait failed, when it did. */
  @Nullable SQLException failure() {
    return failure;
  }

  /** The time the wait was given when it was sent. */
  long sentBudgetNanos() {
    return sentBudgetNanos;
  }

  /**
   * Waits alone when no statement carried the wait: a read whose query sent nothing still ends
   * knowing whether the replica had its token.
   */
  void settle() throws SQLException {
    if (state == State.PENDING) {
      try {
        awaitAlone();
      } catch (NotReached ignored) {
        // The state tells.
      }
    }
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    String name = method.getName();
    if (name.equals("createStatement") && state == State.PENDING) {
      return deferred(Statement.class, (Connection) proxy, method, args, null);
    }
    if (name.equals("prepareStatement")) {
      String sql = (String) args[0];
      // The forms with generated keys are for writes, which the read-only session refuses.
      boolean plain = preparedWithWait && args.length != 2 && SqlText.plainQuery(sql);
      if (state == State.PENDING && plain) {
        return deferred(PreparedStatement.class, (Connection) proxy, method, args, sql);
      }
    }
    if (name.equals("createStatement")
        || name.equals("prepareStatement")
        || name.equals("prepareCall")
        || name.equals("getMetaData")
        || (name.equals("unwrap") && !((Class<?>) args[0]).isInstance(proxy))) {
      // The driver's own connection, or its metadata's, reads without this proxy: after the wait.
      awaitAlone();
    }
    return JdbcProxies.handleCommon(proxy, connection, "Tidemark", method, args);
  }

  private void awaitAlone() throws SQLException {
    if (state == State.REACHED) {
      return;
    }
    ended();
    observer.waiting();
    long begun = ticker.read();
    sentBudgetNanos = budgetNanos.getAsLong();
    boolean reached;
    try {
      reached = dialect.await(connection, required, sentBudgetNanos, observer.seenIfWatched());
    } catch (SQLException e) {
      end(State.FAILED, e, begun);
      throw notReached();
    }
    end(reached ? State.REACHED : State.NOT_REACHED, null, begun);
    ended();
  }

  /** Throws when the wait ended without the token: no statement may run then. */
  private void ended() throws NotReached {
    if (state == State.NOT_REACHED || state == State.FAILED) {
      throw notReached();
    }
  }

  private NotReached notReached() {
    return new NotReached(
        state == State.FAILED
            ? "the wait for the read's token failed on the replica"
            : "the replica had not executed the read's token in time",
        failure);
  }

  private void end(State ended, @Nullable SQLException cause, long begun) {
    state = ended;
    failure = cause;
    observer.ended(ended == State.REACHED, ticker.read() - begun);
  }

  /**
   * Executes {@code text} (or the prepared {@code statement}'s), the wait and a query: returns once
   * the statement's current result is the query's, or throws when the wait did not return in time.
   * A prepared text carries its wait each time it runs; once the token is executed it returns at
   * once.
   */
  private void executeWithWait(Statement statement, @Nullable String text) throws SQLException {
    boolean first = state == State.PENDING;
    if (first) {
      observer.waiting();
    }
    long begun = ticker.read();
    boolean returned;
    try {
      if (text == null) {
        ((PreparedStatement) statement).execute();
      } else {
        statement.execute(text);
      }
      returned = dialect.waitReturned(statement, required, told);
    } catch (SQLException e) {
      if (!first) {
        throw e;
      }
      State ended = failedStatement(e, ticker.read() - begun);
      if (ended == State.REACHED) {
        end(State.REACHED, null, begun);
        throw e; // the query's own failure, as the replica would throw it without the wait
      }
      end(ended, e, begun);
      throw notReached();
    }
    if (first || !returned) {
      end(returned ? State.REACHED : State.NOT_REACHED, null, begun);
    }
    ended();
    if (!statement.getMoreResults()) {
      throw new SQLException("the query sent with the wait returned no rows");
    }
  }

  /**
   * Which statement of the text threw {@code e}, {@code elapsedNanos} after it was sent: the driver
   * reads every result of a text before it returns, so the query's failure is thrown as the wait's
   * would be. A lost connection is the wait's failure; a timer that expired before the wait's could
   * is the query's own (a statement timer of the server's, say); any other failure is the query's
   * when the replica has the token now, since a wait that failed leaves the rest of the text
   * unsent, and the wait's when it lacks it.
   */
  private State failedStatement(SQLException e, long elapsedNanos) {
    if (Failures.isConnectionFailure(e)) {
      return State.FAILED;
    }
    if (dialect.textTakenAsOne(e)) {
      // The query alone may be at fault too; the policy's next node runs it alone and says so.
      observer.takenAsOne();
      return State.FAILED;
    }
    if (dialect.waitTimedOut(e)) {
      long timer = TimeUnit.MILLISECONDS.toNanos(TimeUnit.NANOSECONDS.toMillis(sentBudgetNanos));
      return elapsedNanos < timer ? State.REACHED : State.NOT_REACHED;
    }
    try {
      return dialect.hasExecuted(connection, required) ? State.REACHED : State.FAILED;
    } catch (SQLException unknown) {
      e.addSuppressed(unknown);
      return State.FAILED;
    }
  }

  private Statement deferred(
      Class<? extends Statement> type,
      Connection connectionProxy,
      Method create,
      @Nullable Object[] args,
      @Nullable String sql) {
    return JdbcProxies.proxy(type, new Deferred(connectionProxy, create, args, sql));
  }

  /**
   * A statement not yet created on the server's connection: its settings and parameters are
   * recorded, and it is created when the read first executes it, with the wait when that is still
   * to be sent.
   */
  private final class Deferred implements InvocationHandler {
    private final Connection connectionProxy;
    private final Method create;
    private final @Nullable Object[] createArgs;
    private final @Nullable String preparedSql;
    private final List<Object[]> recorded = new ArrayList<>();
    private final List<Method> recordedMethods = new ArrayList<>();
    private @Nullable Statement created;
    private boolean withWait;
    private boolean closed;

    Deferred(
        Connection connectionProxy,
        Method create,
        @Nullable Object[] createArgs,
        @Nullable String preparedSql) {
      this.connectionProxy = connectionProxy;
      this.create = create;
      this.createArgs = createArgs;
      this.preparedSql = preparedSql;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
        throws Throwable {
      String name = method.getName();
      switch (name) {
        case "close" -> {
          closed = true;
          if (created != null) {
            created.close();
          }
          return null;
        }
        case "getConnection" -> {
          return connectionProxy;
        }
        case "isClosed" -> {
          return created != null ? created.isClosed() : closed;
        }
        case "equals" -> {
          return proxy == args[0];
        }
        case "hashCode" -> {
          return System.identityHashCode(proxy);
        }
        case "toString" -> {
          return "Tidemark[" + (created != null ? created : "statement sent with the wait") + "]";
        }
        default -> {
          // Everything below acts on the statement.
        }
      }
      if (closed) {
        throw new SQLException("the statement is closed", "HY010");
      }
      if (name.startsWith("execute")
          || name.equals("addBatch")
          || name.equals("getResultSet")
          || name.equals("getMoreResults")) {
        ended(); // no statement runs, nor are rows read, once the wait ended without the token
      }
      if (created == null && (name.startsWith("set") || name.equals("clearParameters"))) {
        recorded.add(args == null ? new Object[0] : args.clone());
        recordedMethods.add(method);
        return null;
      }
      if (isQuery(name, args)) {
        String text = preparedSql != null ? null : (String) args[0];
        Statement statement = created;
        if (statement == null && state == State.PENDING) {
          String query = Objects.requireNonNull(text != null ? text : preparedSql);
          sentBudgetNanos = budgetNanos.getAsLong();
          long millis = TimeUnit.NANOSECONDS.toMillis(sentBudgetNanos);
          // A prepared statement is deferred only when its text is a plain query.
          String combined =
              millis > 0 && (text == null || SqlText.plainQuery(text))
                  ? dialect.waitThen(
                      required, millis, query, (told = observer.seenIfWatched()) != null)
                  : null;
          Statement withText = combined == null ? null : created(text == null ? combined : null);
          if (withText != null) {
            withWait = text == null;
            executeWithWait(withText, text == null ? null : combined);
            return name.equals("execute") ? Boolean.TRUE : withText.getResultSet();
          }
        } else if (statement != null && withWait) {
          executeWithWait(statement, null);
          return name.equals("execute") ? Boolean.TRUE : statement.getResultSet();
        }
      }
      Statement statement = created;
      if (statement == null) {
        awaitAlone();
        statement = create(preparedSql);
      }
      return JdbcProxies.handleCommon(proxy, statement, "Tidemark", method, args);
    }

    /** Whether {@code name} executes a query without arguments beyond the text, if any. */
    private boolean isQuery(String name, @Nullable Object[] args) {
      boolean noText = args == null || args.length == 0;
      boolean textOnly = args != null && args.length == 1 && args[0] instanceof String;
      return (name.equals("executeQuery") || name.equals("execute"))
          && (preparedSql != null ? noText : textOnly);
    }

    /**
     * The statement created with {@code sql}, or {@code null} when the driver refused to prepare a
     * text of two: the wait goes alone then.
     */
    private @Nullable Statement created(@Nullable String sql) throws Throwable {
      try {
        return create(sql);
      } catch (SQLException e) {
        if (sql == null || Failures.isConnectionFailure(e)) {
          throw e;
        }
        return null;
      }
    }

    /** Creates the statement, {@code sql} replacing the text it was prepared with, if any. */
    private Statement create(@Nullable String sql) throws Throwable {
      @Nullable Object @Nullable [] sent = createArgs == null ? null : createArgs.clone();
      if (sent != null && sql != null && preparedSql != null) {
        sent[0] = sql;
      }
      Statement statement = (Statement) JdbcProxies.create(connection, create, sent);
      try {
        for (int i = 0; i < recorded.size(); i++) {
          JdbcProxies.invoke(statement, recordedMethods.get(i), recorded.get(i));
        }
      } catch (Throwable e) {
        statement.close();
        throw e;
      }
      created = statement;
      recorded.clear();
      recordedMethods.clear();
      return statement;
    }
  }
}

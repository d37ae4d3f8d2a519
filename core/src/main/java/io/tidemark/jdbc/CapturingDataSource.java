package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.dialect.DriverSession;
import io.tidemark.internal.SocketTimeout;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} over the source's pool that captures the GTID of every commit made through
 * it — explicit commits, autocommit statements, batches, DDL — into the {@link ConsistencyContext}
 * bound to the thread when the connection was checked out. Connections checked out with no context
 * bound are not captured and are counted ({@link Stats#unscoped()}). Rollbacks and read-only
 * transactions change nothing; a commit whose GTID cannot be captured makes the context dirty and
 * is counted.
 *
 * <p>Works with any pool. With MySQL Connector/J and {@code trackSessionState=true} in the JDBC URL
 * the server reports each GTID with the commit (no extra round trip); otherwise, or when the server
 * does not report one, {@code @@GLOBAL.gtid_executed} is read on the same connection right after
 * the commit. With PostgreSQL, the primary's WAL position is read there ({@link
 * io.tidemark.dialect.Dialect#committed}), and a token holds WAL positions.
 *
 * <p>When the context has a deadline (the request's), a write begun before it ends by it too: the
 * connection is taken within what is left ({@link BoundedAcquire}), and every socket read of its
 * statements, its commit and its rollback is bounded by what is left then, at least a floor. A
 * write cut before its commit fails as a lost connection, and one cut while committing is of
 * unknown outcome ({@link CommitOutcomeUnknownException}). A write begun after the deadline runs as
 * without one: a task the request handed its context to may outlive the request, and refusing its
 * writes would lose them.
 */
public final class CapturingDataSource implements DataSource {

  private final DataSource target;
  private final SourceFailures failures;
  private final CaptureSession.Counters counters = new CaptureSession.Counters();

  private CapturingDataSource(DataSource target, SourceFailures failures) {
    this.target = target;
    this.failures = failures;
  }

  /**
   * Wraps the source's data source; a {@code CapturingDataSource} (such as {@link
   * io.tidemark.topology.NodeSelector#writer}) is returned as it is, so that a write connection has
   * one layer of Tidemark.
   */
  public static CapturingDataSource wrap(DataSource source) {
    Objects.requireNonNull(source, "source");
    return source instanceof CapturingDataSource capturing
        ? capturing
        : new CapturingDataSource(source, SourceFailures.NONE);
  }

  /**
   * Wraps a data source whose node can stop being the source: every failure of its connections and
   * their statements, captured or not, passes through {@code onFailure} before anything else sees
   * it, and what it returns is thrown instead ({@code e} itself to pass it on). {@link
   * io.tidemark.topology.NodeSelector#writer} refreshes its view there, and refuses a write the
   * node refused as read-only as one with no writable source.
   */
  public static CapturingDataSource wrap(
      DataSource source, BiFunction<Connection, SQLException, SQLException> onFailure) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(onFailure, "onFailure");
    return new CapturingDataSource(
        source,
        (connection, e) ->
            Objects.requireNonNull(onFailure.apply(connection, e), "onFailure returned null"));
  }

  @Override
  public Connection getConnection() throws SQLException {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    Deadline deadline = context == null ? null : context.deadline();
    if (deadline == null || deadline.isExpired()) {
      return capture(target.getConnection(), context, null);
    }
    return capture(
        BoundedAcquire.connection(target, deadline.remaining().toNanos()), context, deadline);
  }

  /** As {@link #getConnection()}, but the check-out itself is bounded only by the pool. */
  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    Deadline deadline = context == null ? null : context.deadline();
    return capture(
        target.getConnection(username, password),
        context,
        deadline == null || deadline.isExpired() ? null : deadline);
  }

  private Connection capture(
      Connection connection, @Nullable ConsistencyContext context, @Nullable Deadline deadline)
      throws SQLException {
    SocketTimeout bound = null;
    try {
      if (context != null && deadline != null) {
        bound = SocketTimeout.limit(connection, SocketTimeout.millisLeft(deadline.remaining()));
      }
      DriverSession driver = DriverSession.of(connection);
      PhysicalConnection.writable(connection, driver);
      if (context == null) {
        counters.unscoped.increment();
        return failures == SourceFailures.NONE
            ? connection
            : CapturingConnectionHandler.uncaptured(connection, failures);
      }
      CaptureSession session =
          new CaptureSession(
              connection, PhysicalConnection.of(connection, driver), context, counters);
      return CapturingConnectionHandler.proxy(connection, failures, session, deadline, bound);
    } catch (SQLException | RuntimeException e) {
      if (bound != null) {
        bound.close();
      }
      connection.close();
      throw e;
    }
  }

  /** What was captured so far. */
  public Stats stats() {
    return counters.snapshot();
  }

  /** The wrapped data source. */
  public DataSource target() {
    return target;
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return type.isInstance(this) ? type.cast(this) : target.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return type.isInstance(this) || target.isWrapperFor(type);
  }

  /**
   * Counts of what {@link CapturingDataSource} captured since it was created.
   *
   * @param tracked GTID sets reported by the server with the commit (session tracking)
   * @param queried captures by querying {@code @@GLOBAL.gtid_executed} after a commit
   * @param failed commits whose GTID could not be captured; each made its context dirty
   * @param unscoped connections checked out with no {@link io.tidemark.ConsistencyContext} bound,
   *     whose commits were not captured
   */
  public record Stats(long tracked, long queried, long failed, long unscoped) {}
}

package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Objects;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over the source's pool that captures the GTID of every commit made through
 * it — explicit commits, autocommit statements, batches, DDL — into the {@link ConsistencyContext}
 * bound to the thread when the connection was checked out. Connections checked out with no context
 * bound are handed over as they are and counted ({@link CaptureStats#unscoped()}). Rollbacks and
 * read-only transactions change nothing; a commit whose GTID cannot be captured makes the context
 * dirty and is counted.
 *
 * <p>Works with any pool. With MySQL Connector/J and {@code trackSessionState=true} in the JDBC URL
 * the server reports each GTID with the commit (no extra round trip); otherwise, or when the server
 * does not report one, {@code @@GLOBAL.gtid_executed} is read on the same connection right after
 * the commit. With PostgreSQL, the primary's WAL position is read there ({@link
 * io.tidemark.postgres.PostgresServer#committed}), and a token holds WAL positions.
 */
public final class CapturingDataSource implements DataSource {

  private final DataSource target;
  private final CaptureSession.Counters counters = new CaptureSession.Counters();

  private CapturingDataSource(DataSource target) {
    this.target = target;
  }

  /** Wraps the source's data source. */
  public static CapturingDataSource wrap(DataSource source) {
    return new CapturingDataSource(Objects.requireNonNull(source, "source"));
  }

  @Override
  public Connection getConnection() throws SQLException {
    return capture(target.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return capture(target.getConnection(username, password));
  }

  private Connection capture(Connection connection) throws SQLException {
    try {
      DriverSession driver = DriverSession.of(connection);
      PhysicalConnection.writable(driver);
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      if (context == null) {
        counters.unscoped.increment();
        return connection;
      }
      CaptureSession session =
          new CaptureSession(
              connection, PhysicalConnection.of(connection, driver), context, counters);
      return CapturingConnectionHandler.proxy(connection, session);
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** What was captured so far. */
  public CaptureStats stats() {
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
}

package io.tidemark.spring.autoconfigure;

import io.tidemark.jdbc.CapturingDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The application's {@code DataSource} as Tidemark hands it out: inside a read under
 * {@code @ReadYourWrites}, the read's pinned connection; everywhere else a connection to the
 * current writable source whose commits are captured into the {@link
 * io.tidemark.ConsistencyContext}. {@link #unwrap} reaches the application's pool, so pool metrics
 * and health keep working.
 */
final class TidemarkDataSource implements DataSource {

  private final DataSource target;
  private final Supplier<CapturingDataSource> writes;

  /**
   * @param target the application's pool, the source node's
   * @param writes connections to the writable source, capturing; resolved on first use, since the
   *     topology is built from the application's pool
   */
  TidemarkDataSource(DataSource target, Supplier<CapturingDataSource> writes) {
    this.target = target;
    this.writes = writes;
  }

  /** The application's pool. */
  DataSource target() {
    return target;
  }

  @Override
  public Connection getConnection() throws SQLException {
    PinnedRead read = PinnedRead.current();
    return read != null ? read.lease() : writes.get().getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    PinnedRead read = PinnedRead.current();
    return read != null ? read.lease() : writes.get().getConnection(username, password);
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
    return type.isInstance(this) || type.isInstance(target) || target.isWrapperFor(type);
  }

  @Override
  public String toString() {
    return "TidemarkDataSource[" + target + "]";
  }
}

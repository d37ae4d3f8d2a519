package io.tidemark.spring.routing;

import io.tidemark.jdbc.CapturingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's {@code DataSource} as Tidemark hands it out: inside a read under
 * {@code @ReadYourWrites}, the read's pinned connection; everywhere else a connection to the
 * current writable source whose commits are captured into the {@link
 * io.tidemark.ConsistencyContext}. {@link #unwrap} reaches the application's pool, so pool metrics
 * and health keep working.
 */
final class RoutingDataSource extends DelegatingDataSource {

  private final Supplier<CapturingDataSource> writes;

  /**
   * @param target the application's pool, the source node's
   * @param writes connections to the writable source, capturing; resolved on first use, since the
   *     topology is built from the application's pool
   */
  RoutingDataSource(DataSource target, Supplier<CapturingDataSource> writes) {
    super(target);
    this.writes = writes;
  }

  /** The application's pool. */
  DataSource target() {
    return obtainTargetDataSource();
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
  public String toString() {
    return "RoutingDataSource[" + target() + "]";
  }
}

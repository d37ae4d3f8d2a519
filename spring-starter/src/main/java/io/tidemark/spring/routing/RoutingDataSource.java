package io.tidemark.spring.routing;

import com.zaxxer.hikari.HikariConfig;
import io.tidemark.jdbc.CapturingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's {@code DataSource} as Tidemark hands it out: inside a read under
 * {@code @ReadYourWrites}, the read's pinned connection; everywhere else a connection to the
 * current writable source whose commits are captured into the {@link
 * io.tidemark.ConsistencyContext}. Either is handed out in the auto-commit mode of the
 * application's pool. {@link #unwrap} reaches the application's pool, so pool metrics and health
 * keep working.
 */
final class RoutingDataSource extends DelegatingDataSource {

  /** Commons DBCP2's and Tomcat JDBC's setting of their connections' auto-commit. */
  private static final String DEFAULT_AUTO_COMMIT = "defaultAutoCommit";

  private final Supplier<CapturingDataSource> writes;
  private volatile @Nullable AutoCommit autoCommit;

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
    return asTheApplicationsPool(read != null ? read.lease() : writes.get().getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    PinnedRead read = PinnedRead.current();
    return asTheApplicationsPool(
        read != null ? read.lease() : writes.get().getConnection(username, password));
  }

  /**
   * {@code connection} in the auto-commit mode of the application's pool. A replica's pool keeps
   * its connections in auto-commit, for the reads' waits, and takes the writes once a failover
   * promoted its replica; an application whose pool hands out connections without auto-commit may
   * rely on it: Hibernate told so ({@code provider_disables_autocommit}) never turns it off itself,
   * and ends each transaction with a commit or rollback that the driver refuses in auto-commit. The
   * replica's pool turns it back on when the connection returns. Where the pool does not say, a
   * connection goes out as it came: one of the application's pool is never switched to auto-commit,
   * which would commit each statement of the application's transactions on its own.
   */
  private Connection asTheApplicationsPool(Connection connection) throws SQLException {
    Boolean applications = applicationAutoCommit().on;
    if (applications != null && connection.getAutoCommit() != applications) {
      connection.setAutoCommit(applications);
    }
    return connection;
  }

  /**
   * The auto-commit the application's pool gives its connections, as the pool is configured:
   * HikariCP's {@code autoCommit}, Commons DBCP2's and Tomcat JDBC's {@code defaultAutoCommit}
   * (unset: the driver's, on); {@link AutoCommit#UNKNOWN} for a pool that has neither.
   */
  private AutoCommit applicationAutoCommit() throws SQLException {
    AutoCommit known = autoCommit;
    if (known == null) {
      DataSource pool = target();
      if (pool.isWrapperFor(HikariConfig.class)) {
        known = AutoCommit.of(pool.unwrap(HikariConfig.class).isAutoCommit());
      } else {
        BeanWrapper settings = new BeanWrapperImpl(pool);
        known =
            settings.isReadableProperty(DEFAULT_AUTO_COMMIT)
                ? AutoCommit.of(
                    !Boolean.FALSE.equals(settings.getPropertyValue(DEFAULT_AUTO_COMMIT)))
                : AutoCommit.UNKNOWN;
      }
      autoCommit = known;
    }
    return known;
  }

  /** What the application's pool says of its connections' auto-commit. */
  private enum AutoCommit {
    ON(true),
    OFF(false),
    UNKNOWN(null);

    private final @Nullable Boolean on;

    AutoCommit(@Nullable Boolean on) {
      this.on = on;
    }

    static AutoCommit of(boolean on) {
      return on ? ON : OFF;
    }
  }

  @Override
  public String toString() {
    return "RoutingDataSource[" + target() + "]";
  }
}

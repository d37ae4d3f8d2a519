package io.tidemark.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import com.zaxxer.hikari.util.DriverDataSource;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.DriverSession;
import io.tidemark.internal.JdbcProxies;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * A pool of {@link ReplicaPools}: its connections come through a data source whose connections
 * bound {@code isValid}, the pool's validation, by the end of the check-out that runs it, so that
 * {@link #connection} may take one on the caller's thread. Outside such a check-out (the pool's own
 * housekeeping, an application's {@code getConnection()}) validation runs as the pool configures
 * it.
 */
final class DeadlineBoundPool extends HikariDataSource implements BoundedCheckout {

  private static final long NO_CHECKOUT = Long.MIN_VALUE;

  /** The {@link System#nanoTime} at which the current thread's check-out ends. */
  private static final ThreadLocal<long[]> CHECKOUT_END =
      ThreadLocal.withInitial(() -> new long[] {NO_CHECKOUT});

  private DeadlineBoundPool(HikariConfig config) {
    super(config);
  }

  static DeadlineBoundPool create(HikariConfig config) {
    if (config.getConnectionTestQuery() != null) {
      throw new IllegalArgumentException(
          "a replica pool validates with the driver's isValid, which a read's deadline bounds;"
              + " remove connectionTestQuery ("
              + config.getConnectionTestQuery()
              + ")");
    }
    if (config.getDataSourceClassName() != null || config.getDataSourceJNDI() != null) {
      throw new IllegalArgumentException(
          "a replica pool needs jdbcUrl or a DataSource, not a data source class or JNDI name");
    }
    HikariConfig bounded = new HikariConfig();
    config.copyStateTo(bounded);
    DataSource target = config.getDataSource();
    if (target == null) {
      target =
          new DriverDataSource(
              config.getJdbcUrl(),
              config.getDriverClassName(),
              config.getDataSourceProperties(),
              config.getUsername(),
              config.getPassword());
    }
    bounded.setDataSource(dataSource(target));
    return new DeadlineBoundPool(bounded);
  }

  /** Taken on this thread: waiting for a free connection and validating it both end in time. */
  @Override
  public Connection connection(long timeoutNanos) throws SQLException {
    if (!(getHikariPoolMXBean() instanceof HikariPool pool)) {
      return getConnection(); // closed: the pool says so
    }
    long[] end = CHECKOUT_END.get();
    end[0] = System.nanoTime() + timeoutNanos;
    try {
      return pool.getConnection(Math.max(0, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
    } finally {
      end[0] = NO_CHECKOUT;
    }
  }

  private static DataSource dataSource(DataSource target) {
    return JdbcProxies.proxy(
        DataSource.class,
        (proxy, method, args) ->
            method.getName().equals("getConnection")
                ? connection((Connection) JdbcProxies.create(target, method, args))
                : JdbcProxies.handleCommon(proxy, target, "Tidemark", method, args));
  }

  private static Connection connection(Connection target) {
    return JdbcProxies.proxy(
        Connection.class,
        (proxy, method, args) ->
            method.getName().equals("isValid")
                ? isValid(target, (Integer) args[0])
                : JdbcProxies.handleCommon(proxy, target, "Tidemark", method, args));
  }

  private static boolean isValid(Connection target, int seconds) throws SQLException {
    long end = CHECKOUT_END.get()[0];
    if (end == NO_CHECKOUT) {
      return target.isValid(seconds);
    }
    long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
    long millis = seconds == 0 ? left : Math.min(left, TimeUnit.SECONDS.toMillis(seconds));
    if (millis < 1) {
      return false;
    }
    DriverSession driver = DriverSession.of(target);
    if (driver != null) {
      return driver.ping((int) Math.min(Integer.MAX_VALUE, millis));
    }
    return Dialect.of(target).validWithin(target, millis);
  }
}

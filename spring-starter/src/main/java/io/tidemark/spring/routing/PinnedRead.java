package io.tidemark.spring.routing;

import io.tidemark.GtidSet;
import io.tidemark.internal.JdbcProxies;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import org.jspecify.annotations.Nullable;

/**
 * The replica (or source) connection a read under {@code @ReadYourWrites} runs on, bound to the
 * thread while the annotated method runs: every connection the method asks the application's {@code
 * DataSource} for is this one, so JdbcTemplate, JPA and MyBatis all read where the read path
 * decided.
 */
final class PinnedRead {

  private static final ThreadLocal<@Nullable PinnedRead> CURRENT = new ThreadLocal<>();

  private final Connection connection;
  private final GtidSet required;

  private PinnedRead(Connection connection, GtidSet required) {
    this.connection = connection;
    this.required = required;
  }

  /** The read running on this thread, or {@code null}. */
  static @Nullable PinnedRead current() {
    return CURRENT.get();
  }

  /**
   * Pins {@code connection}, already past the wait for {@code required}, until the binding closes.
   */
  static Binding pin(Connection connection, GtidSet required) {
    PinnedRead before = CURRENT.get();
    CURRENT.set(new PinnedRead(connection, required));
    return () -> {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    };
  }

  /** The GTID set the pinned connection is known to contain. */
  GtidSet required() {
    return required;
  }

  /**
   * The pinned connection as the method sees it: closing it only ends the method's use; the read
   * path closes the real one after the method returned.
   */
  Connection lease() {
    return (Connection)
        Proxy.newProxyInstance(
            PinnedRead.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                method.getName().equals("close")
                    ? null
                    : JdbcProxies.handleCommon(proxy, connection, "PinnedRead", method, args));
  }

  /** A binding that closes without throwing. */
  @FunctionalInterface
  interface Binding extends AutoCloseable {
    @Override
    void close();
  }
}

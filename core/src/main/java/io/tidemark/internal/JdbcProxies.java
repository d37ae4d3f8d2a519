package io.tidemark.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Wrapper;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The part every JDBC proxy of Tidemark handles alike (capture, refresh on a refused write, the
 * pinned read's lease): {@code unwrap}/{@code isWrapperFor} see through the proxy (so pool metrics
 * and driver-specific calls still work), identity-based {@code equals}, and plain delegation for
 * the rest.
 */
public final class JdbcProxies {

  private JdbcProxies() {}

  /** A proxy of the JDBC interface {@code type} whose calls {@code handler} handles. */
  public static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  /**
   * A proxy of {@code statement} as the kind it is ({@link CallableStatement}, {@link
   * PreparedStatement} or {@link Statement}), so that callers can still cast it to that kind.
   */
  public static Statement proxy(Statement statement, InvocationHandler handler) {
    return statement instanceof CallableStatement
        ? proxy(CallableStatement.class, handler)
        : statement instanceof PreparedStatement
            ? proxy(PreparedStatement.class, handler)
            : proxy(Statement.class, handler);
  }

  /** Handles {@code method} as every proxy does; {@code label} names the proxy in its text. */
  public static @Nullable Object handleCommon(
      Object proxy, Object target, String label, Method method, @Nullable Object[] args)
      throws Throwable {
    switch (method.getName()) {
      case "unwrap" -> {
        Class<?> type = (Class<?>) args[0];
        return type.isInstance(proxy) ? proxy : ((Wrapper) target).unwrap(type);
      }
      case "isWrapperFor" -> {
        Class<?> type = (Class<?>) args[0];
        return type.isInstance(proxy) || ((Wrapper) target).isWrapperFor(type);
      }
      case "equals" -> {
        return proxy == args[0];
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "toString" -> {
        return label + "[" + target + "]";
      }
      default -> {
        return invoke(target, method, args);
      }
    }
  }

  /** Calls {@code method} on {@code target}, throwing what it threw. */
  public static @Nullable Object invoke(
      Object target, Method method, @Nullable Object @Nullable [] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * As {@link #invoke}, for a method whose JDBC contract is to return an object (a statement, a
   * connection).
   */
  public static Object create(Object target, Method method, @Nullable Object @Nullable [] args)
      throws Throwable {
    return Objects.requireNonNull(
        invoke(target, method, args), () -> method.getName() + " returned null");
  }
}

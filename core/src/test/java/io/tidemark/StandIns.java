package io.tidemark;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/** Stand-ins for JDBC interfaces whose every call goes to a handler the test writes. */
public final class StandIns {

  private StandIns() {}

  /** A {@code type} whose methods {@code handler} answers. */
  public static <T> T of(Class<T> type, InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}

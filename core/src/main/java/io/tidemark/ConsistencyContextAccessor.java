package io.tidemark;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * The bound {@link ConsistencyContext} as io.micrometer:context-propagation sees it, under the key
 * {@value #KEY}. The library finds it by itself ({@code ContextRegistry.getInstance()} loads it as
 * a service), so that {@code ContextSnapshot}, {@code ContextExecutorService}, Spring's {@code
 * ContextPropagatingTaskDecorator} and Reactor's automatic context propagation carry the context to
 * the threads they run work on: the same context, shared as {@link ConsistencyContext#wrap} shares
 * it, with its deadline and forwarded tokens.
 *
 * <p>Only the context is carried. The connection a read under {@code @ReadYourWrites} is pinned to
 * stays on the read's thread: a JDBC connection is not for two threads at once.
 */
public final class ConsistencyContextAccessor implements ThreadLocalAccessor<ConsistencyContext> {

  /** The key of the context in a context snapshot or a Reactor {@code Context}. */
  public static final String KEY = "tidemark.consistency-context";

  /** Instantiated by the library's service loading. */
  public ConsistencyContextAccessor() {}

  @Override
  public Object key() {
    return KEY;
  }

  /** The bound context, or {@code null}: capturing never binds one. */
  @Override
  public @Nullable ConsistencyContext getValue() {
    return ConsistencyContext.currentOrNull();
  }

  @Override
  public void setValue(ConsistencyContext value) {
    ConsistencyContext.bind(value);
  }

  /** Unbinds: the snapshot being applied has no context, so the thread must not keep one. */
  @Override
  public void setValue() {
    ConsistencyContext.bind(null);
  }

  /** Binds again what was bound before the snapshot was applied. */
  @Override
  public void restore(ConsistencyContext previous) {
    ConsistencyContext.bind(previous);
  }

  /** Unbinds: nothing was bound before the snapshot was applied. */
  @Override
  public void restore() {
    ConsistencyContext.bind(null);
  }
}

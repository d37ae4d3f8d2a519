package io.tidemark.spring.autoconfigure;

import io.tidemark.Deadline;
import org.jspecify.annotations.Nullable;

/**
 * The deadline of the unit of work on this thread (an HTTP request, or a task started by one):
 * reads under it wait at most what is left of it.
 */
final class RequestBudget {

  private static final ThreadLocal<@Nullable Deadline> CURRENT = new ThreadLocal<>();

  private RequestBudget() {}

  /** The deadline bound to this thread, or {@code null} when there is none. */
  static @Nullable Deadline current() {
    return CURRENT.get();
  }

  /** Binds {@code deadline} to this thread until the returned binding closes. */
  static Binding bind(@Nullable Deadline deadline) {
    Deadline before = CURRENT.get();
    CURRENT.set(deadline);
    return new Binding(before);
  }

  /** A binding of a deadline; closing it restores the one bound before. */
  static final class Binding implements AutoCloseable {
    private final @Nullable Deadline before;

    private Binding(@Nullable Deadline before) {
      this.before = before;
    }

    @Override
    public void close() {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    }
  }
}

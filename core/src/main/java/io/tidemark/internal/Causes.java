package io.tidemark.internal;

import org.jspecify.annotations.Nullable;

/** The chain of causes of a failure, as frameworks and drivers wrap what went wrong. */
public final class Causes {

  // A chain longer than this is a cycle, or wrapping nobody reads to the end of.
  private static final int MAX_DEPTH = 32;

  private Causes() {}

  /** The first of {@code failure} and its causes that is a {@code type}, or {@code null}. */
  public static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
    int depth = 0;
    for (Throwable cause = failure;
        cause != null && depth < MAX_DEPTH;
        cause = cause.getCause(), depth++) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    return null;
  }

  /** The last of {@code failure}'s causes, or {@code failure} itself. */
  public static Throwable innermost(Throwable failure) {
    Throwable last = failure;
    int depth = 0;
    for (Throwable cause = failure;
        cause != null && depth < MAX_DEPTH;
        cause = cause.getCause(), depth++) {
      last = cause;
    }
    return last;
  }
}

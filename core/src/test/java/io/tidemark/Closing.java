package io.tidemark;

import org.jspecify.annotations.Nullable;

/** Closing what a test class started, whose start may have failed part way. */
public final class Closing {

  private Closing() {}

  /** Closes each of {@code started} in order, passing over those a failed start left null. */
  public static void closeAll(@Nullable AutoCloseable... started) throws Exception {
    for (AutoCloseable resource : started) {
      if (resource != null) {
        resource.close();
      }
    }
  }
}

package io.tidemark;

/**
 * The root of every exception Tidemark throws for a failure it detected, each carrying a reason
 * code that metrics, logs and HTTP problem responses can use as a stable key.
 *
 * <p>The tree stays shallow: one subtype per area, each with its own reason enum. Misuse of the API
 * (a null argument, an out-of-range setting) gets the usual JDK exceptions instead.
 */
public abstract class TidemarkException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception; {@code withStackTrace} is false for failures caused by outside input,
   * where the input and not the call stack explains what happened and filling the stack trace would
   * let a client make the service do needless work.
   */
  protected TidemarkException(String message, boolean withStackTrace) {
    super(message, null, false, withStackTrace);
  }

  /** The reason code: why this failure happened, as a stable enum constant. */
  public abstract Enum<?> reason();
}

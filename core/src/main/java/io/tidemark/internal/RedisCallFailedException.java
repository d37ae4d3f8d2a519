package io.tidemark.internal;

/**
 * A Redis call that did not produce a reply in time; caught inside Tidemark and turned into an
 * "unknown" result and a counted failure, never thrown to callers.
 */
public final class RedisCallFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  RedisCallFailedException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}

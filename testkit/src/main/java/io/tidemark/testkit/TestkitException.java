package io.tidemark.testkit;

/** Thrown when a test server cannot be prepared, started, reached or controlled. */
public final class TestkitException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  TestkitException(String message) {
    super(message);
  }

  TestkitException(String message, Throwable cause) {
    super(message, cause);
  }
}

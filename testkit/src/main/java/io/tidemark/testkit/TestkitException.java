package io.tidemark.testkit;

/** Thrown when a test server cannot be prepared, started, reached or controlled. */
public final class TestkitException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public TestkitException(String message) {
    super(message);
  }

  public TestkitException(String message, Throwable cause) {
    super(message, cause);
  }
}

package io.tidemark.spring.autoconfigure;

/**
 * A configuration Tidemark cannot start with: what is wrong, and what to do about it (shown by
 * {@link TidemarkFailureAnalyzer}).
 */
final class TidemarkStartupException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final String action;

  TidemarkStartupException(String problem, String action) {
    super(problem);
    this.action = action;
  }

  /** What to change so that the application starts. */
  String action() {
    return action;
  }
}

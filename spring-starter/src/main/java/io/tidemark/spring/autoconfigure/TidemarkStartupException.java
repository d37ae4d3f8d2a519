package io.tidemark.spring.autoconfigure;

/**
 * A configuration Tidemark cannot start with: what is wrong, and what to do about it (shown by
 * {@link TidemarkFailureAnalyzer}). Public so that the configurations of the other packages, such
 * as messaging's, refuse a setting the same way.
 */
public final class TidemarkStartupException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final String action;

  /** A start refused because of {@code problem}, which {@code action} says how to fix. */
  public TidemarkStartupException(String problem, String action) {
    super(problem);
    this.action = action;
  }

  /** What to change so that the application starts. */
  String action() {
    return action;
  }
}

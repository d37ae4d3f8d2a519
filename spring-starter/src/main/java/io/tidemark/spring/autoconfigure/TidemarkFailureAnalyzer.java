package io.tidemark.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link TidemarkStartupException}, wherever it sits in the cause chain of a failed start,
 * into Boot's "APPLICATION FAILED TO START" report: the problem as the description and what to
 * change as the action, instead of a stack trace through bean creation.
 */
final class TidemarkFailureAnalyzer extends AbstractFailureAnalyzer<TidemarkStartupException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, TidemarkStartupException cause) {
    return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
  }
}

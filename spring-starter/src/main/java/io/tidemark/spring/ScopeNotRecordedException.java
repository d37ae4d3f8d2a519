package io.tidemark.spring;

import io.tidemark.TidemarkException;

/**
 * A {@link ScopedWrites} method committed its writes, but the scope store could not record them (it
 * did not answer in time, twice): reads under the scope on other instances may not see these
 * writes. The writes are not undone; the caller learns that the scope's promise does not hold for
 * them, instead of a success that reads would silently contradict.
 */
public final class ScopeNotRecordedException extends TidemarkException {

  private static final long serialVersionUID = 1L;

  /** The one reason of this exception. */
  public enum Failure {
    /** The store did not take the merge (or the dirty mark) of a committed write. */
    SCOPE_NOT_RECORDED
  }

  private final String scope;

  public ScopeNotRecordedException(String scope, String message) {
    super(message, true);
    this.scope = scope;
  }

  @Override
  public Failure reason() {
    return Failure.SCOPE_NOT_RECORDED;
  }

  /** The scope the writes could not be recorded in. */
  public String scope() {
    return scope;
  }
}

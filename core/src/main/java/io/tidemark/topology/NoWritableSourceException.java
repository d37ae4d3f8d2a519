package io.tidemark.topology;

import io.tidemark.Reason;
import java.sql.SQLTransientConnectionException;

/**
 * No single node accepts writes now: none does ({@link Reason#NO_WRITABLE_SOURCE}, as during a
 * failover) or two do ({@link Reason#SPLIT_BRAIN}). Transient: the view checks the roles again, so
 * a retry shortly after may succeed.
 */
public final class NoWritableSourceException extends SQLTransientConnectionException {

  private static final long serialVersionUID = 1L;

  private final Reason reason;

  public NoWritableSourceException(Reason reason, String detail) {
    super(reason + ": " + detail, "08001");
    this.reason = reason;
  }

  /** {@link Reason#NO_WRITABLE_SOURCE} or {@link Reason#SPLIT_BRAIN}. */
  public Reason reason() {
    return reason;
  }
}

package io.tidemark.topology;

import io.tidemark.Reason;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * No single node accepts writes now: none does ({@link Reason#NO_WRITABLE_SOURCE}, as during a
 * failover, also when the node a write went to refused it as read-only) or two do ({@link
 * Reason#SPLIT_BRAIN}). Nothing was written. Transient: the view checks the roles again, so a retry
 * shortly after may succeed. SQLSTATE {@code 08001}.
 */
public final class NoWritableSourceException extends SQLTransientConnectionException {

  private static final long serialVersionUID = 1L;

  private final Reason reason;

  public NoWritableSourceException(Reason reason, String detail) {
    super(reason + ": " + detail, "08001");
    this.reason = reason;
  }

  /** As above, for a write the node refused as {@code cause} says. */
  public NoWritableSourceException(Reason reason, String detail, SQLException cause) {
    super(reason + ": " + detail, "08001", cause);
    this.reason = reason;
  }

  /** {@link Reason#NO_WRITABLE_SOURCE} or {@link Reason#SPLIT_BRAIN}. */
  public Reason reason() {
    return reason;
  }
}

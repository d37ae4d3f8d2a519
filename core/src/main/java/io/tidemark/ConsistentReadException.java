package io.tidemark;

import java.time.Duration;

/**
 * Thrown when a read can neither be served fresh nor fall back as its policy allows: the replica
 * did not catch up, the source lacks the token, or no connection could be had in time. Carries the
 * reason, the token, the replica and the time waited.
 */
public final class ConsistentReadException extends TidemarkException {

  private static final long serialVersionUID = 1L;

  private final Reason reason;
  private final transient GtidSet required;
  private final String replica;
  private final Duration waited;
  private final transient GtidSet lost;

  ConsistentReadException(
      Reason reason,
      GtidSet required,
      String replica,
      Duration waited,
      GtidSet lost,
      String message) {
    super(message, true);
    this.reason = reason;
    this.required = required;
    this.replica = replica;
    this.waited = waited;
    this.lost = lost;
  }

  /** Creates the exception for a failed read; the message states the measured facts. */
  public static ConsistentReadException of(
      Reason reason, GtidSet required, String replica, Duration waited, String detail) {
    return create(reason, required, replica, waited, GtidSet.EMPTY, detail);
  }

  /**
   * Creates the {@link Reason#TOKEN_NOT_ON_SOURCE} exception for a read whose token names {@code
   * lost}, GTIDs the source has not executed: writes lost in a failover.
   */
  public static ConsistentReadException lost(
      GtidSet required, GtidSet lost, String replica, Duration waited, String detail) {
    return create(
        Reason.TOKEN_NOT_ON_SOURCE, required, replica, waited, lost, detail + "; lost " + lost);
  }

  private static ConsistentReadException create(
      Reason reason,
      GtidSet required,
      String replica,
      Duration waited,
      GtidSet lost,
      String detail) {
    return new ConsistentReadException(
        reason,
        required,
        replica,
        waited,
        lost,
        reason
            + ": "
            + detail
            + " (replica "
            + replica
            + ", waited "
            + waited.toMillis()
            + " ms, token "
            + required.toSingleLineString()
            + ")");
  }

  @Override
  public Reason reason() {
    return reason;
  }

  /** The GTID set the read required. */
  public GtidSet required() {
    return required;
  }

  /** The replica's {@code server_uuid}, or {@code "replica"} when no replica connection was had. */
  public String replica() {
    return replica;
  }

  /** Time spent waiting for the replica. */
  public Duration waited() {
    return waited;
  }

  /**
   * For {@link Reason#TOKEN_NOT_ON_SOURCE}, the token's GTIDs the source lacks, when it could tell
   * which; empty otherwise.
   */
  public GtidSet lost() {
    return lost;
  }
}

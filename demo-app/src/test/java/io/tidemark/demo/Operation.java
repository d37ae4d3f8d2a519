package io.tidemark.demo;

import org.jspecify.annotations.Nullable;

/**
 * One recorded operation of the workload.
 *
 * @param chain the key's chain (one order)
 * @param step position in the chain, from 0
 * @param client how the client keeps its token: a header it sends back, or a session scope
 * @param kind write or read
 * @param intended when the operation was due, by the driver's schedule (nanos)
 * @param started when it was sent (nanos)
 * @param ended when its answer arrived (nanos)
 * @param status the HTTP status, or 0 when no answer came
 * @param revision the revision written (for a write whose outcome is unknown, the one it would have
 *     written), or the revision read; -1 for none (not found, failed)
 * @param required for a read, the revision of the chain's last acknowledged write
 * @param reason the reason code the service gave (served or refused), or empty
 * @param sent the token header sent, if any
 * @param returned the token header answered, if any
 * @param serverMillis how long the service says the read took, or -1 when it did not say
 */
record Operation(
    long chain,
    int step,
    Client client,
    Kind kind,
    long intended,
    long started,
    long ended,
    int status,
    long revision,
    long required,
    String reason,
    @Nullable String sent,
    @Nullable String returned,
    double serverMillis) {

  enum Kind {
    WRITE,
    READ
  }

  enum Client {
    /** Sends the token of its last answer in the header. */
    HEADER,
    /** Sends no token: its customer's scope holds its writes. */
    SESSION,
    /** Sends no token and no scope: its reads ask for the {@code GLOBAL} level. */
    GLOBAL
  }

  /** A write the service said it made and answered with the row: its revision is known. */
  boolean acknowledged() {
    return kind == Kind.WRITE && status >= 200 && status < 300 && revision >= 0;
  }

  /** A write the service could not say it made or not: its commit was never confirmed. */
  boolean outcomeUnknown() {
    return kind == Kind.WRITE && UNKNOWN_OUTCOME.equals(reason);
  }

  static final String UNKNOWN_OUTCOME = "COMMIT_OUTCOME_UNKNOWN";

  boolean servedRead() {
    return kind == Kind.READ && (status == 200 || status == 404);
  }

  /** Time from when it was due to its answer: waiting behind a slow driver counts too. */
  long latencyNanos() {
    return ended - intended;
  }

  /** Time from when it was sent to its answer: what the service's deadline bounds. */
  long serviceNanos() {
    return ended - started;
  }
}

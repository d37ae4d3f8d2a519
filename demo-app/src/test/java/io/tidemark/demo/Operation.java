package io.tidemark.demo;

/**
 * One recorded operation of the workload.
 *
 * @param chain the key's chain (one order)
 * @param step position in the chain, from 0
 * @param kind write or read
 * @param intended when the operation was due, by the driver's schedule (nanos)
 * @param started when it was sent (nanos)
 * @param ended when its answer arrived (nanos)
 * @param status the HTTP status
 * @param revision the revision written, or the revision read; -1 for none (not found, failed)
 * @param required for a read, the revision of the write whose token it carried
 * @param reason the reason code the service gave (served or refused), or empty
 */
record Operation(
    long chain,
    int step,
    Kind kind,
    long intended,
    long started,
    long ended,
    int status,
    long revision,
    long required,
    String reason) {

  enum Kind {
    WRITE,
    READ
  }

  boolean acknowledged() {
    return kind == Kind.WRITE && status >= 200 && status < 300;
  }

  boolean servedRead() {
    return kind == Kind.READ && (status == 200 || status == 404);
  }

  /** Time from when it was due to its answer: waiting behind a slow driver counts too. */
  long latencyNanos() {
    return ended - intended;
  }
}

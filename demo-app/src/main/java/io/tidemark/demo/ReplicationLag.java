package io.tidemark.demo;

import io.tidemark.testkit.MySqlNode;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Replication lag as production sees it, in small doses: the replica's applier is held for a
 * moment, then let go to catch up, over and over, so a read right after a write usually finds the
 * replica a little behind.
 */
final class ReplicationLag implements AutoCloseable {

  private final MySqlNode replica;
  private final Repeated holds;

  private ReplicationLag(MySqlNode replica, Repeated holds) {
    this.replica = replica;
    this.holds = holds;
  }

  /** Starts holding the applier of {@code replica} for {@code held}, then {@code released}. */
  static ReplicationLag start(MySqlNode replica, Duration held, Duration released) {
    return new ReplicationLag(
        replica,
        Repeated.every(
            released,
            "replication-lag",
            () -> {
              replica.pauseApplier();
              LockSupport.parkNanos(held.toNanos());
              replica.resumeApplier();
            }));
  }

  /** Stops injecting lag and leaves the applier running. */
  @Override
  public void close() {
    holds.close();
    replica.resumeApplier();
  }
}

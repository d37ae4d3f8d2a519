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
  private final Duration held;
  private final Duration released;
  private final Thread thread;
  private volatile boolean running = true;

  private ReplicationLag(MySqlNode replica, Duration held, Duration released) {
    this.replica = replica;
    this.held = held;
    this.released = released;
    this.thread = new Thread(this::loop, "replication-lag");
    this.thread.setDaemon(true);
  }

  /** Starts holding the applier of {@code replica} for {@code held}, then {@code released}. */
  static ReplicationLag start(MySqlNode replica, Duration held, Duration released) {
    ReplicationLag lag = new ReplicationLag(replica, held, released);
    lag.thread.start();
    return lag;
  }

  private void loop() {
    while (running) {
      replica.pauseApplier();
      LockSupport.parkNanos(held.toNanos());
      replica.resumeApplier();
      LockSupport.parkNanos(released.toNanos());
    }
  }

  /** Stops injecting lag and leaves the applier running. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    replica.resumeApplier();
  }
}

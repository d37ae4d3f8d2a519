package io.tidemark.demo;

import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.postgres.PostgresNode;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Replication lag as production sees it, in small doses: the replica's applier (a standby's replay)
 * is held for a moment, then let go to catch up, over and over, so a read right after a write
 * usually finds the replica a little behind.
 */
final class ReplicationLag implements AutoCloseable {

  private final Runnable release;
  private final Repeated holds;

  private ReplicationLag(Runnable release, Repeated holds) {
    this.release = release;
    this.holds = holds;
  }

  /** Starts holding the applier of {@code replica} for {@code held}, then {@code released}. */
  static ReplicationLag start(MySqlNode replica, Duration held, Duration released) {
    return start(replica::pauseApplier, replica::resumeApplier, held, released);
  }

  /**
   * Starts holding the applier of the MariaDB {@code replica} for {@code held}, then {@code
   * released}.
   */
  static ReplicationLag start(MariaDbNode replica, Duration held, Duration released) {
    return start(replica::pauseApplier, replica::resumeApplier, held, released);
  }

  /** Starts pausing the replay of {@code standby} for {@code held}, then {@code released}. */
  static ReplicationLag start(PostgresNode standby, Duration held, Duration released) {
    return start(standby::pauseReplay, standby::resumeReplay, held, released);
  }

  private static ReplicationLag start(
      Runnable hold, Runnable release, Duration held, Duration released) {
    return new ReplicationLag(
        release,
        Repeated.every(
            released,
            "replication-lag",
            () -> {
              hold.run();
              LockSupport.parkNanos(held.toNanos());
              release.run();
            }));
  }

  /** Stops injecting lag and leaves the applier running. */
  @Override
  public void close() {
    holds.close();
    release.run();
  }
}

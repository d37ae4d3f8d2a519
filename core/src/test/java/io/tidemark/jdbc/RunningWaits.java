package io.tidemark.jdbc;

import io.tidemark.testkit.mysql.MySqlNode;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Finds the wait a read is running on a server, to act on it (resume, kill) mid-wait. */
final class RunningWaits {

  private static final String RUNNING =
      "SELECT ID FROM information_schema.PROCESSLIST"
          + " WHERE INFO LIKE 'SELECT /*+ MAX_EXECUTION_TIME(%) */ WAIT_FOR_EXECUTED_GTID_SET(%' LIMIT 1";

  private RunningWaits() {}

  /** The connection id running a wait on {@code node}, once there is one (10 s at most). */
  static String awaitOne(MySqlNode node) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      String id = node.queryString(RUNNING);
      if (id != null) {
        return id;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
    throw new AssertionError("no wait running on " + node + " within 10 s");
  }
}

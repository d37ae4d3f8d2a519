package io.tidemark.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Notices the moment a replica has executed a GTID that is not written yet, which makes it the
 * replication floor's stopwatch: {@link #arm} starts {@code WAIT_FOR_EXECUTED_GTID_SET} for the
 * GTID the source will give the next write, on a connection of its own, and returns only once the
 * replica shows that wait in its process list; {@link #visibleAt} gives the {@link System#nanoTime}
 * at which the wait's answer arrived. The server wakes such a wait when the applier commits the
 * transaction, so the figure is the earliest any client can learn of it: apply time plus half a
 * round trip.
 */
final class VisibilityObserver extends ArmedObserver {

  private static final long ARM_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final Connection waiting;
  private final Connection monitor;
  private final long waitingId;

  /** Observes with {@code waiting} and checks the process list with {@code monitor}. */
  VisibilityObserver(Connection waiting, Connection monitor) throws SQLException {
    super("visibility-observer");
    this.waiting = waiting;
    this.monitor = monitor;
    try (PreparedStatement ps = waiting.prepareStatement("SELECT CONNECTION_ID()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      this.waitingId = rs.getLong(1);
    }
  }

  /** Starts waiting for {@code gtid}; returns when the replica is waiting for it. */
  void arm(String gtid) throws SQLException {
    Future<Long> look = start(() -> awaitOnServer(gtid));
    long deadline = System.nanoTime() + ARM_TIMEOUT_NANOS;
    while (!serverIsWaiting()) {
      if (look.isDone() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the observer's wait for " + gtid + " did not start");
      }
      LockSupport.parkNanos(20_000);
    }
  }

  private long awaitOnServer(String gtid) throws SQLException {
    try (PreparedStatement ps =
        waiting.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 20)")) {
      ps.setString(1, gtid);
      try (ResultSet rs = ps.executeQuery()) {
        long at = System.nanoTime();
        rs.next();
        if (rs.getInt(1) != 0) {
          throw new IllegalStateException("the replica did not execute " + gtid + " within 20 s");
        }
        return at;
      }
    }
  }

  private boolean serverIsWaiting() throws SQLException {
    try (PreparedStatement ps =
        monitor.prepareStatement(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?"
                + " AND STATE LIKE 'Waiting for GTID%'")) {
      ps.setLong(1, waitingId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 1;
      }
    }
  }

  /** How many sessions of the replica wait in {@code WAIT_FOR_EXECUTED_GTID_SET} now. */
  static int waitingSessions(Connection monitor) throws SQLException {
    try (PreparedStatement ps =
            monitor.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE STATE LIKE 'Waiting for GTID%'");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }
}

package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.TidemarkException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Waits on a replica connection until the server has executed a GTID set, within a budget, with the
 * server's own {@code WAIT_FOR_EXECUTED_GTID_SET}; never with a timeout of 0 or none, which both
 * mean forever.
 *
 * <p>Some servers (MySQL 8.0.15 among them) truncate a fractional timeout to whole seconds: 0.3 s
 * times out at once and 1.5 s waits 1 s. On those, the whole seconds of the budget are waited on
 * the server and the rest is covered by polling {@code GTID_SUBSET} with growing pauses. Which kind
 * a server is, is measured once per server with a 50 ms wait that cannot succeed (twice when it
 * seems to be honoured), and corrected when a wait times out well before its timeout.
 */
final class GtidWaiter {

  private static final String WAIT = "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)";
  private static final String EXECUTED = "SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed)";
  private static final String MISSING = "SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)";
  private static final String PROBE =
      "SELECT WAIT_FOR_EXECUTED_GTID_SET(CONCAT(@@GLOBAL.server_uuid, ':', "
          + GtidSet.MAX_GNO
          + "), 0.05)";
  private static final long PROBE_HONOURED_NANOS = TimeUnit.MILLISECONDS.toNanos(30);
  private static final long MIN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(32);
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long EARLY_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final Ticker ticker;
  private final ConcurrentMap<String, Boolean> honoursFractions = new ConcurrentHashMap<>();

  GtidWaiter(Ticker ticker) {
    this.ticker = ticker;
  }

  /**
   * Returns whether the server executed {@code required} before {@code budgetNanos} ran out. A
   * budget of zero or less sends no wait, only a non-blocking check.
   */
  boolean await(Connection connection, String serverUuid, GtidSet required, long budgetNanos)
      throws SQLException {
    if (budgetNanos <= 0) {
      return executed(connection, required);
    }
    long end = ticker.read() + budgetNanos;
    boolean fractions = honoursFractions(connection, serverUuid);
    // The first call on a server spends part of the budget on the probe.
    long left = end - ticker.read();
    if (left <= 0) {
      return executed(connection, required);
    }
    if (fractions) {
      long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
      long begun = ticker.read();
      if (waitOnServer(connection, required, BigDecimal.valueOf(millis, 3))) {
        return true;
      }
      long early = TimeUnit.MILLISECONDS.toNanos(millis) - (ticker.read() - begun);
      if (early < EARLY_TIMEOUT_NANOS && early < TimeUnit.MILLISECONDS.toNanos(millis) / 2) {
        return false;
      }
      // Timed out well before its timeout (1.5 s waits 1 s, 0.3 s none): the probe was misled by
      // a stall and this server truncates; correct the record and spend the rest of the budget
      // the way truncating servers need.
      honoursFractions.put(serverUuid, false);
      left = end - ticker.read();
    }
    long wholeSeconds = left / SECOND;
    if (wholeSeconds > 0 && waitOnServer(connection, required, BigDecimal.valueOf(wholeSeconds))) {
      return true;
    }
    return poll(connection, required, end);
  }

  /** Whether the server has executed {@code required} now: one round trip, never blocks. */
  boolean executed(Connection connection, GtidSet required) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(EXECUTED)) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 1;
      }
    }
  }

  /**
   * The part of {@code required} the server has not executed, or {@code null} when its answer
   * cannot be read.
   */
  @Nullable GtidSet missing(Connection connection, GtidSet required) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(MISSING)) {
      ps.setString(1, required.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return GtidSet.parse(rs.getString(1));
      }
    } catch (TidemarkException e) {
      return null;
    }
  }

  private boolean poll(Connection connection, GtidSet required, long end) throws SQLException {
    long pause = MIN_POLL_NANOS;
    while (true) {
      if (executed(connection, required)) {
        return true;
      }
      long left = end - ticker.read();
      if (left <= 0) {
        return false;
      }
      // The server offers no sub-second wait here; a short pause bounded by the budget is the
      // cheapest way to notice the token soon after it is applied.
      LockSupport.parkNanos(Math.min(pause, left));
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return executed(connection, required);
      }
      pause = Math.min(pause * 2, MAX_POLL_NANOS);
    }
  }

  private boolean waitOnServer(Connection connection, GtidSet required, BigDecimal seconds)
      throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(WAIT)) {
      ps.setString(1, required.toString());
      ps.setBigDecimal(2, seconds);
      // A guard in case a server ignores its own timeout: the driver cancels the statement.
      ps.setQueryTimeout(seconds.intValue() + 2);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int result = rs.getInt(1);
        return result == 0 && !rs.wasNull();
      }
    }
  }

  private boolean honoursFractions(Connection connection, String serverUuid) throws SQLException {
    Boolean known = honoursFractions.get(serverUuid);
    if (known != null) {
      return known;
    }
    // Twice when the first says "honoured": a stall can only make a probe slower, so a second
    // slow one is needed to believe it; a truncating server answers both at once.
    boolean honoured = probeTakesItsTime(connection) && probeTakesItsTime(connection);
    honoursFractions.put(serverUuid, honoured);
    return honoured;
  }

  private boolean probeTakesItsTime(Connection connection) throws SQLException {
    long started = ticker.read();
    try (PreparedStatement ps = connection.prepareStatement(PROBE)) {
      ps.setQueryTimeout(2);
      ps.executeQuery().close();
    }
    return ticker.read() - started >= PROBE_HONOURED_NANOS;
  }
}

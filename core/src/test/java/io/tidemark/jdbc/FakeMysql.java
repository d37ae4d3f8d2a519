package io.tidemark.jdbc;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * A MySQL server as far as the statements Tidemark sends go, for a {@link FakeConnection}: it has a
 * {@code server_uuid} and an executed GTID set, answers {@code WAIT_FOR_EXECUTED_GTID_SET}, {@code
 * GTID_SUBSET} and the timing probe, and moves a {@link FakeTicker} by as long as a real server
 * would take. Newer servers honour fractional wait timeouts; older ones truncate them to whole
 * seconds, so that a wait under one second times out at once. Other statements are answered as
 * scripted with {@link #answering}; anything else is an error.
 */
final class FakeMysql implements FakeConnection.Server {

  /** How long the probe's 50 ms wait takes on a server that honours fractions. */
  static final Duration PROBE_TIME = Duration.ofMillis(50);

  private final String uuid;
  private final FakeTicker ticker;
  private final Map<String, @Nullable Object> answers = new HashMap<>();
  private final Map<String, SQLException> failures = new HashMap<>();
  private final Map<String, Duration> failureTimes = new HashMap<>();
  private boolean honoursFractions = true;
  private int slowProbesLeft;
  private Duration checkTime = Duration.ofMillis(1);
  private GtidSet executed = GtidSet.EMPTY;
  private GtidSet applying = GtidSet.EMPTY;
  private long appliedAt;

  FakeMysql(String uuid, FakeTicker ticker) {
    this.uuid = uuid;
    this.ticker = ticker;
  }

  /** Makes the next {@code count} probes take their full time even on a truncating server. */
  synchronized FakeMysql stallingProbes(int count) {
    slowProbesLeft = count;
    return this;
  }

  /** Makes this an older server that truncates fractional timeouts to whole seconds. */
  synchronized FakeMysql truncatingFractions() {
    honoursFractions = false;
    return this;
  }

  /** Time one {@code GTID_SUBSET} check takes, together with the caller's pause after it. */
  synchronized FakeMysql checkTakes(Duration time) {
    checkTime = time;
    return this;
  }

  /** Adds {@code gtids} to what the server has executed now. */
  synchronized FakeMysql executed(String gtids) {
    executed = executed.union(GtidSet.parse(gtids));
    return this;
  }

  /** Restarts the server from an older snapshot: the same UUID, only {@code gtids} executed. */
  synchronized FakeMysql restoredWith(String gtids) {
    executed = GtidSet.parse(gtids);
    return this;
  }

  /** Makes the server execute {@code gtids} once {@code delay} has passed on the ticker. */
  synchronized FakeMysql executesAfter(Duration delay, String gtids) {
    applying = GtidSet.parse(gtids);
    appliedAt = ticker.read() + delay.toNanos();
    return this;
  }

  /** Answers {@code sql} with a one-row result holding {@code value} (or an update count). */
  synchronized FakeMysql answering(String sql, @Nullable Object value) {
    answers.put(sql, value);
    return this;
  }

  /** Fails {@code sql} with {@code error}. */
  synchronized FakeMysql failing(String sql, SQLException error) {
    return failingAfter(sql, Duration.ZERO, error);
  }

  /** Fails {@code sql} with {@code error} once {@code time} has passed on the ticker. */
  synchronized FakeMysql failingAfter(String sql, Duration time, SQLException error) {
    failures.put(sql, error);
    failureTimes.put(sql, time);
    return this;
  }

  synchronized GtidSet executed() {
    settle();
    return executed;
  }

  @Override
  public synchronized @Nullable Object answer(FakeConnection.Sent statement) throws SQLException {
    String sql = statement.sql();
    SQLException failure = failures.get(sql);
    if (failure != null) {
      ticker.advance(failureTimes.get(sql));
      throw failure;
    }
    if (sql.contains("WAIT_FOR_EXECUTED_GTID_SET") && sql.contains("0.05")) {
      boolean stalled = slowProbesLeft > 0;
      slowProbesLeft = Math.max(0, slowProbesLeft - 1);
      ticker.advance(honoursFractions || stalled ? PROBE_TIME : Duration.ZERO);
      return 1;
    }
    if (sql.contains("WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      return waitFor(required(statement), statement.parameter(2));
    }
    if (sql.contains("GTID_SUBSET(?, @@GLOBAL.gtid_executed)")) {
      ticker.advance(checkTime);
      // The caller's pause after a check is part of checkTime: let it return at once.
      LockSupport.unpark(Thread.currentThread());
      settle();
      return executed.containsAll(required(statement)) ? 1 : 0;
    }
    if (sql.contains("GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)")) {
      return required(statement).subtract(executed).toString();
    }
    switch (sql) {
      case "SELECT @@GLOBAL.server_uuid" -> {
        return uuid;
      }
      case PhysicalConnection.SERVER -> {
        return uuid + " " + executed.toString();
      }
      case "SELECT @@GLOBAL.gtid_executed" -> {
        settle();
        return executed.toString();
      }
      case "ROLLBACK", "SET SESSION session_track_gtids = OWN_GTID" -> {
        return null;
      }
      default -> {
        if (answers.containsKey(sql)) {
          return answers.get(sql);
        }
        throw new SQLException("unexpected statement on the fake server: " + sql, "42000");
      }
    }
  }

  private int waitFor(GtidSet required, @Nullable Object timeoutParameter) {
    if (!(timeoutParameter instanceof Number)) {
      throw new AssertionError("WAIT_FOR_EXECUTED_GTID_SET with timeout " + timeoutParameter);
    }
    BigDecimal timeout = new BigDecimal(timeoutParameter.toString());
    if (timeout.signum() <= 0) {
      // 0 waits forever, a negative timeout is an error: neither may ever be sent.
      throw new AssertionError("WAIT_FOR_EXECUTED_GTID_SET with timeout " + timeout);
    }
    long waitNanos =
        honoursFractions
            ? timeout.movePointRight(9).longValue()
            : timeout.longValue() * Duration.ofSeconds(1).toNanos();
    settle();
    if (executed.containsAll(required)) {
      return 0;
    }
    long untilApplied = appliedAt - ticker.read();
    if (executed.union(applying).containsAll(required) && untilApplied <= waitNanos) {
      ticker.advanceNanos(untilApplied);
      settle();
      return 0;
    }
    ticker.advanceNanos(waitNanos);
    settle();
    return 1;
  }

  private void settle() {
    if (!applying.isEmpty() && ticker.read() - appliedAt >= 0) {
      executed = executed.union(applying);
      applying = GtidSet.EMPTY;
    }
  }

  private static GtidSet required(FakeConnection.Sent statement) {
    return GtidSet.parse(String.valueOf(statement.parameter(1)));
  }
}

package io.tidemark.jdbc;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A MySQL server as far as the statements Tidemark sends go, for a {@link FakeConnection}: it has a
 * {@code server_uuid} and an executed GTID set, answers {@code WAIT_FOR_EXECUTED_GTID_SET} (in
 * whole seconds, ended early by a {@code MAX_EXECUTION_TIME} hint with error 3024) and {@code
 * GTID_SUBSET}, and moves a {@link FakeTicker} by as long as a real server would take. Other
 * statements are answered as scripted with {@link #answering}; anything else is an error.
 */
final class FakeMysql implements FakeConnection.Server {

  private static final Pattern WAIT =
      Pattern.compile(
          "SELECT /\\*\\+ MAX_EXECUTION_TIME\\((\\d+)\\) \\*/ WAIT_FOR_EXECUTED_GTID_SET\\(\\?, (\\d+)\\)"
              + "(, @@GLOBAL.gtid_executed)?");

  private final String uuid;
  private final FakeTicker ticker;
  private final Map<String, @Nullable Object> answers = new HashMap<>();
  private final Map<String, SQLException> failures = new HashMap<>();
  private final Map<String, Duration> failureTimes = new HashMap<>();
  private GtidSet executed = GtidSet.EMPTY;
  private GtidSet applying = GtidSet.EMPTY;
  private long appliedAt;

  FakeMysql(String uuid, FakeTicker ticker) {
    this.uuid = uuid;
    this.ticker = ticker;
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
    Matcher wait = WAIT.matcher(sql);
    if (wait.matches()) {
      return waitFor(
          required(statement),
          Duration.ofMillis(Long.parseLong(wait.group(1))),
          Duration.ofSeconds(Long.parseLong(wait.group(2))),
          wait.group(3) != null);
    }
    if (sql.contains("WAIT_FOR_EXECUTED_GTID_SET")) {
      throw new AssertionError("a wait not bounded by the statement timer: " + sql);
    }
    if (sql.contains("GTID_SUBSET(?, @@GLOBAL.gtid_executed)")) {
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
      case "SELECT CONCAT(@@GLOBAL.server_uuid, ' ', @@GLOBAL.gtid_executed)" -> {
        return uuid + " " + executed.toString();
      }
      case "SELECT @@GLOBAL.gtid_executed" -> {
        settle();
        return executed.toString();
      }
      case "ROLLBACK", "SET SESSION session_track_gtids = OWN_GTID" -> {
        return null;
      }
      case "SELECT received_transaction_set FROM performance_schema.replication_connection_status" -> {
        return "";
      }
      default -> {
        if (answers.containsKey(sql)) {
          return answers.get(sql);
        }
        throw new SQLException("unexpected statement on the fake server: " + sql, "42000");
      }
    }
  }

  /**
   * The wait's row: 0 once {@code required} is executed, and what the server has executed when
   * asked ({@code executedToo}).
   */
  private Object[] waitFor(GtidSet required, Duration timer, Duration timeout, boolean executedToo)
      throws SQLException {
    if (timer.isZero() || timeout.isZero() || timeout.compareTo(timer) < 0) {
      // A timeout of 0 waits forever, and one shorter than the timer is cut by a truncating server.
      throw new AssertionError("WAIT_FOR_EXECUTED_GTID_SET bounded " + timer + ", " + timeout);
    }
    settle();
    if (executed.containsAll(required)) {
      return reached(executedToo);
    }
    long untilApplied = appliedAt - ticker.read();
    if (executed.union(applying).containsAll(required) && untilApplied <= timer.toNanos()) {
      ticker.advanceNanos(untilApplied);
      settle();
      return reached(executedToo);
    }
    ticker.advance(timer);
    settle();
    throw new SQLException(
        "Query execution was interrupted, maximum statement execution time exceeded",
        "HY000",
        3024); // ER_QUERY_TIMEOUT
  }

  private Object[] reached(boolean executedToo) {
    return executedToo ? new Object[] {0, executed.toString()} : new Object[] {0};
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

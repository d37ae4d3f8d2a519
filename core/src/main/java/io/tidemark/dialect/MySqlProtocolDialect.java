package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What MySQL and MariaDB share, who speak one protocol: a wait is one statement that the server's
 * statement timer ends at the budget's millisecond with an error and the connection left as it was
 * (no polling, no client timer); the same wait goes with a read's query in one text, each statement
 * its own autocommit transaction, the server running none after one that failed, so a query never
 * runs behind a wait that timed out; and both drivers take their timeouts in milliseconds. How a
 * position is named, waited for and read back is each database's.
 */
abstract sealed class MySqlProtocolDialect implements Dialect permits MySqlDialect, MariaDbDialect {

  /** {@code ER_ACCESS_DENIED_ERROR}: the credentials were refused. */
  static final int ACCESS_DENIED = 1045;

  /** {@code ER_OPTION_PREVENTS_STATEMENT}: the server's {@code read_only} refused a write. */
  static final int READ_ONLY = 1290;

  /** {@code ER_PARSE_ERROR}: the statements' separator read as part of one. */
  private static final int PARSE_ERROR = 1064;

  /** What a position's text holds: nothing that could end a quoted literal. */
  private static final Pattern LITERAL = Pattern.compile("[0-9A-Za-z_:,\\-\\s]+");

  private final int timerExpired;

  /** {@code timerExpired}: the error the server's statement timer ends a statement with. */
  MySqlProtocolDialect(int timerExpired) {
    this.timerExpired = timerExpired;
  }

  /**
   * {@code required} as the text the wait reads; {@code null} when the server never executes it.
   */
  abstract @Nullable String waitPositions(GtidSet required);

  /**
   * The wait of {@code millis} (at least 1) for {@code positions} (a parameter or a literal),
   * answering one row; with {@code tellExecuted}, what the server had executed when it returned as
   * well; with {@code queryBehind}, a query follows it in the same text, which must not run after a
   * wait that timed out, so the wait then fails when its time runs out.
   */
  abstract String waitStatement(
      String positions, long millis, boolean tellExecuted, boolean queryBehind);

  /**
   * Whether the wait's row in {@code waitResult} says the server executed {@code required}, telling
   * {@code seen}, when given, what it had executed when it answered.
   */
  abstract boolean reached(ResultSet waitResult, GtidSet required, @Nullable Consumer<GtidSet> seen)
      throws SQLException;

  @Override
  public final boolean await(
      Connection connection, GtidSet required, long budgetNanos, @Nullable Consumer<GtidSet> seen)
      throws SQLException {
    long millis = TimeUnit.NANOSECONDS.toMillis(budgetNanos);
    String positions = waitPositions(required);
    if (positions == null) {
      return false;
    }
    if (millis <= 0) {
      return hasExecuted(connection, required);
    }
    try (PreparedStatement ps =
        connection.prepareStatement(waitStatement("?", millis, seen != null, false))) {
      ps.setString(1, positions);
      // Connector/J takes a text that opens with SET (MariaDB's timer) for one without rows.
      ps.execute();
      try (ResultSet rs = ps.getResultSet()) {
        return rs != null && reached(rs, required, seen);
      }
    } catch (SQLException e) {
      if (waitTimedOut(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * In a transaction, the wait reads no table, and InnoDB takes a transaction's read view at its
   * first read of one. Not one statement with the wait in it: the server may read the rows before
   * it evaluates the wait.
   */
  @Override
  public final @Nullable String waitThen(
      GtidSet required, long millis, String query, boolean tellExecuted) {
    String positions = waitPositions(required);
    if (positions == null || !LITERAL.matcher(positions).matches() || query.indexOf(';') >= 0) {
      return null;
    }
    return waitStatement("'" + positions + "'", millis, tellExecuted, true) + "; " + query;
  }

  @Override
  public final boolean waitReturned(
      Statement statement, GtidSet required, @Nullable Consumer<GtidSet> seen) throws SQLException {
    try (ResultSet wait = statement.getResultSet()) {
      return wait != null && reached(wait, required, seen);
    }
  }

  @Override
  public final WaitSight waitSight(Connection connection) {
    return WaitSight.WHEN_RETURNED;
  }

  @Override
  public final boolean textTakenAsOne(SQLException failure) {
    return failure.getErrorCode() == PARSE_ERROR;
  }

  @Override
  public final boolean waitTimedOut(SQLException failure) {
    return failure.getErrorCode() == timerExpired;
  }

  @Override
  // Both drivers send SET SESSION TRANSACTION READ ONLY, which autocommit statements obey.
  public final boolean readOnlyNeedsTransaction() {
    return false;
  }

  @Override
  public @Nullable Boolean transactionOpen(Connection connection, @Nullable DriverSession driver)
      throws SQLException {
    return driver == null ? null : driver.inTransactionOnServer();
  }

  @Override
  public final String probeUrl(String jdbcUrl, Duration connectTimeout, Duration readTimeout) {
    return jdbcUrl
        + (jdbcUrl.contains("?") ? "&" : "?")
        + "connectTimeout="
        + connectTimeout.toMillis()
        + "&socketTimeout="
        + readTimeout.toMillis();
  }

  @Override
  public final boolean credentialsRefused(SQLException failure) {
    return failure.getErrorCode() == ACCESS_DENIED;
  }
}

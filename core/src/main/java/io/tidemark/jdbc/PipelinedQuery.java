package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One {@code SELECT} a read may send in the same round trip as its wait: {@code SELECT
 * WAIT_FOR_EXECUTED_GTID_SET(...); <sql>} as one multi-statement text. Each statement of it runs in
 * a transaction of its own, so the query's read view is taken after the wait returned, and the
 * server skips the query when the wait fails; its rows are used only when the wait returned 0. Not
 * one statement with the wait in it: the server may read the rows before it evaluates the wait.
 */
final class PipelinedQuery<T> {

  private final String sql;
  private final Object[] parameters;
  private final ResultSetFunction<T> rows;

  PipelinedQuery(String sql, Object[] parameters, ResultSetFunction<T> rows) {
    String trimmed = sql.strip();
    if (trimmed.endsWith(";")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
    }
    if (trimmed.isEmpty() || trimmed.indexOf(';') >= 0) {
      throw new IllegalArgumentException(
          "a query is one statement, without ';' (not even in a literal; bind it as a parameter): "
              + sql);
    }
    this.sql = trimmed;
    this.parameters = parameters.clone();
    this.rows = rows;
  }

  /** The query alone, as a read runs it where no wait is needed. */
  SqlFunction<T> alone() {
    return connection -> {
      try (PreparedStatement ps = connection.prepareStatement(sql)) {
        bind(ps, 1);
        try (ResultSet rs = ps.executeQuery()) {
          return rows.apply(rs);
        }
      }
    };
  }

  /** What the query returned, which may be {@code null}; a {@code Rows} at all means "reached". */
  record Rows<T>(@Nullable T value) {}

  /**
   * The wait for {@code required} within {@code budgetNanos} (at least a millisecond) and the
   * query, sent together: the query's result when the server executed {@code required} in time,
   * else {@code null}.
   *
   * @throws IllegalStateException when the connection's driver does not send several statements in
   *     one text ({@code allowMultiQueries=true})
   */
  @Nullable Rows<T> afterWait(Connection connection, GtidSet required, long budgetNanos)
      throws SQLException {
    DriverSession driver = DriverSession.of(connection);
    if (driver == null || !driver.allowsMultiQueries()) {
      throw new IllegalStateException(
          "a query sent with its wait needs several statements in one text: add"
              + " allowMultiQueries=true to the replica pool's JDBC URL");
    }
    long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos));
    try (PreparedStatement ps =
        connection.prepareStatement(MySqlDialect.waitStatement(millis) + "; " + sql)) {
      ps.setString(1, required.toString());
      bind(ps, 2);
      ps.execute();
      boolean reached;
      try (ResultSet wait = ps.getResultSet()) {
        reached = MySqlDialect.reached(wait);
      }
      if (!reached) {
        return null;
      }
      if (!ps.getMoreResults()) {
        throw new SQLException("the query sent with the wait returned no rows: " + sql);
      }
      try (ResultSet rs = ps.getResultSet()) {
        return new Rows<>(rows.apply(rs));
      }
    } catch (SQLException e) {
      if (MySqlDialect.timerEnded(e)) {
        return null;
      }
      throw e;
    }
  }

  private void bind(PreparedStatement ps, int first) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      ps.setObject(first + i, parameters[i]);
    }
  }
}

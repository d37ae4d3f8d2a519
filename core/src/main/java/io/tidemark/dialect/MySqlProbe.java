package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * MySQL's node probe: role, replication state, executed GTIDs and the applier's timestamps in one
 * query of global variables and performance_schema's replication tables.
 */
final class MySqlProbe {

  /** MySQL's "SELECT command denied to user ... for table ...". */
  static final int TABLE_ACCESS_DENIED = 1142;

  /** What the probe reads besides global variables, which a user needs SELECT on. */
  private static final List<String> REPLICATION_TABLES =
      List.of(
          "replication_connection_status",
          "replication_applier_status",
          "replication_applier_status_by_worker");

  private static final String CHANNEL = " WHERE CHANNEL_NAME = ''";
  private static final String QUERY =
      "SELECT @@GLOBAL.server_uuid, @@GLOBAL.read_only, @@GLOBAL.gtid_mode,"
          + " @@GLOBAL.gtid_executed, @@GLOBAL.super_read_only,"
          + " (SELECT COUNT(*) FROM performance_schema.replication_connection_status"
          + CHANNEL
          + "),"
          + " (SELECT SERVICE_STATE FROM performance_schema.replication_connection_status"
          + CHANNEL
          + "),"
          + " (SELECT SERVICE_STATE FROM performance_schema.replication_applier_status"
          + CHANNEL
          + "),"
          + " (SELECT SOURCE_UUID FROM performance_schema.replication_connection_status"
          + CHANNEL
          + "),"
          + " (SELECT MAX(TIMESTAMPDIFF(MICROSECOND,"
          + " APPLYING_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP, NOW(6)))"
          + " FROM performance_schema.replication_applier_status_by_worker"
          + CHANNEL
          + " AND APPLYING_TRANSACTION <> '')";

  private MySqlProbe() {}

  static Dialect.NodeFacts probe(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(QUERY)) {
      rs.next();
      String uuid = rs.getString(1);
      boolean writable = !rs.getBoolean(2);
      boolean gtidModeOn = "ON".equalsIgnoreCase(rs.getString(3));
      GtidSet executed = GtidSet.parse(rs.getString(4));
      boolean superReadOnly = rs.getBoolean(5);
      boolean replica = rs.getInt(6) > 0;
      boolean receiving = "ON".equals(rs.getString(7));
      boolean replicating = receiving && "ON".equals(rs.getString(8));
      String channelSource = rs.getString(9);
      // A receiver retrying a source that is down still makes this node that source's replica.
      boolean receiverRuns = receiving || "CONNECTING".equals(rs.getString(7));
      String replicatesFrom =
          !receiverRuns || channelSource == null || channelSource.isEmpty() ? null : channelSource;
      long applyingMicros = rs.getLong(10);
      Duration applyingAge =
          rs.wasNull() ? null : Duration.ofNanos(Math.max(0, applyingMicros) * 1000);
      return new Dialect.NodeFacts(
          uuid,
          writable,
          superReadOnly,
          replica,
          replicating,
          replicatesFrom,
          gtidModeOn,
          executed,
          true,
          applyingAge,
          "",
          List.of());
    }
  }

  /**
   * A user granted the application's data only may not read performance_schema's replication
   * tables: which of them it lacks, as the statements that grant them to its account.
   */
  static Dialect.@Nullable ProbeGrants grants(Connection c, SQLException failure)
      throws SQLException {
    if (failure.getErrorCode() != TABLE_ACCESS_DENIED) {
      return null;
    }
    String account = account(c);
    List<String> grants = new ArrayList<>();
    for (String table : REPLICATION_TABLES) {
      if (!readable(c, "performance_schema." + table)) {
        grants.add("GRANT SELECT ON performance_schema." + table + " TO " + account + ";");
      }
    }
    return new Dialect.ProbeGrants(account, grants);
  }

  /** {@code CURRENT_USER()} as an account name in a statement: {@code 'user'@'host'}. */
  static String account(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT CURRENT_USER()")) {
      rs.next();
      String account = rs.getString(1);
      int at = account.lastIndexOf('@');
      return at < 0
          ? quoted(account)
          : quoted(account.substring(0, at)) + "@" + quoted(account.substring(at + 1));
    }
  }

  private static String quoted(String name) {
    return "'" + name.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  private static boolean readable(Connection c, String table) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1 FROM " + table + " LIMIT 0")) {
      return true;
    } catch (SQLException e) {
      if (e.getErrorCode() == TABLE_ACCESS_DENIED) {
        return false;
      }
      throw e;
    }
  }
}

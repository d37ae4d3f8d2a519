package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * MariaDB's node probe: role and positions from global variables, the replication connections from
 * {@code SHOW ALL SLAVES STATUS}, which needs the {@code SLAVE MONITOR} privilege.
 */
final class MariaDbProbe {

  /** {@code ER_SPECIFIC_ACCESS_DENIED_ERROR}: the user lacks a privilege the statement needs. */
  static final int PRIVILEGE_DENIED = 1227;

  private static final String VARIABLES =
      "SELECT @@GLOBAL.server_id, @@GLOBAL.read_only, @@GLOBAL.gtid_strict_mode,"
          + " @@GLOBAL.gtid_binlog_state, @@GLOBAL.gtid_current_pos";

  private static final String REPLICATION = "SHOW ALL SLAVES STATUS";

  private MariaDbProbe() {}

  /**
   * A replica replicates while all its replication connections receive and apply. It has
   * transactions of its own only in a domain's sequence, which {@code gtid_strict_mode} stops its
   * replication over, so none are counted apart: without strict mode its positions do not tell what
   * it has, and tokens are not waited for on it.
   */
  static Dialect.NodeFacts probe(Connection c) throws SQLException {
    long serverId;
    boolean writable;
    boolean strict;
    GtidSet executed;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(VARIABLES)) {
      rs.next();
      serverId = rs.getLong(1);
      writable = !rs.getBoolean(2);
      strict = rs.getBoolean(3);
      executed = MariaDbDialect.positions(rs, 4);
    }
    boolean replica = false;
    boolean replicating = true;
    String replicatesFrom = null;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(REPLICATION)) {
      while (rs.next()) {
        replica = true;
        String receiver = rs.getString("Slave_IO_Running");
        boolean receiving = "Yes".equalsIgnoreCase(receiver);
        replicating &= receiving && "Yes".equalsIgnoreCase(rs.getString("Slave_SQL_Running"));
        // A receiver retrying a source that is down still makes this node that source's replica.
        boolean receiverRuns =
            receiving || "Connecting".equalsIgnoreCase(String.valueOf(receiver).strip());
        long from = rs.getLong("Master_Server_Id");
        if (replicatesFrom == null && receiverRuns && !rs.wasNull() && from != 0) {
          replicatesFrom = MariaDbPositions.server(from).toString();
        }
      }
    }
    return new Dialect.NodeFacts(
        MariaDbPositions.server(serverId).toString(),
        writable,
        false,
        replica,
        replica && replicating,
        replicatesFrom,
        strict,
        executed,
        false,
        null,
        strict
            ? ""
            : "runs with gtid_strict_mode OFF, so a domain's sequence numbers may go back and its"
                + " positions do not tell what it executed",
        List.of());
  }

  /** What each replication connection received; nothing when the user may not read it. */
  static GtidSet received(Connection c) throws SQLException {
    GtidSet received = GtidSet.EMPTY;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(REPLICATION)) {
      while (rs.next()) {
        String position = rs.getString("Gtid_IO_Pos");
        received = received.union(MariaDbPositions.parse(position == null ? "" : position));
      }
    } catch (SQLException e) {
      if (e.getErrorCode() != PRIVILEGE_DENIED) {
        throw e;
      }
    }
    return received;
  }

  /** A user granted the application's data only may not read the replication connections. */
  static Dialect.@Nullable ProbeGrants grants(Connection c, SQLException failure)
      throws SQLException {
    if (failure.getErrorCode() != PRIVILEGE_DENIED) {
      return null;
    }
    String account = MySqlProbe.account(c);
    return new Dialect.ProbeGrants(
        account, List.of("GRANT SLAVE MONITOR ON *.* TO " + account + ";"));
  }
}

package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.topology.NodeState.Availability;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads one node's role, replication state, executed GTIDs and applier timestamps in one round
 * trip, on a connection of its own with short connect and read timeouts, so that a slow node delays
 * only its own probe.
 */
final class NodeProbe {

  private static final int ACCESS_DENIED = 1045;
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
          + " (SELECT MAX(TIMESTAMPDIFF(MICROSECOND,"
          + " APPLYING_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP, NOW(6)))"
          + " FROM performance_schema.replication_applier_status_by_worker"
          + CHANNEL
          + " AND APPLYING_TRANSACTION <> '')";

  private final NodeConfig config;
  private final String url;
  private @Nullable Connection connection;

  NodeProbe(NodeConfig config, Duration connectTimeout, Duration readTimeout) {
    this.config = config;
    this.url =
        config.jdbcUrl()
            + (config.jdbcUrl().contains("?") ? "&" : "?")
            + "connectTimeout="
            + connectTimeout.toMillis()
            + "&socketTimeout="
            + readTimeout.toMillis();
  }

  /**
   * Probes the node; {@code timeline} says what the source executed lately, to tell how far behind
   * a replica is and which of its own transactions the source lacks.
   */
  synchronized NodeState probe(SourceTimeline timeline) {
    try {
      Connection c = connection;
      if (c == null || c.isClosed()) {
        c = DriverManager.getConnection(url, config.user(), config.password());
        connection = c;
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(QUERY)) {
        rs.next();
        return read(rs, timeline);
      }
    } catch (SQLException e) {
      close();
      Availability availability =
          e.getErrorCode() == ACCESS_DENIED ? Availability.AUTH_FAILED : Availability.UNREACHABLE;
      return NodeState.failed(config.name(), availability, e.getMessage());
    } catch (RuntimeException e) {
      // An answer that cannot be read (a set beyond the parser's limits, say) must not escape:
      // the scheduler would stop probing the node for good, its last state frozen.
      close();
      return NodeState.failed(
          config.name(), Availability.UNREACHABLE, "its probe answer could not be read: " + e);
    }
  }

  private NodeState read(ResultSet rs, SourceTimeline timeline) throws SQLException {
    String uuid = rs.getString(1);
    boolean writable = !rs.getBoolean(2);
    boolean gtidModeOn = "ON".equalsIgnoreCase(rs.getString(3));
    GtidSet executed = GtidSet.parse(rs.getString(4));
    boolean superReadOnly = rs.getBoolean(5);
    boolean replica = rs.getInt(6) > 0;
    boolean replicating = "ON".equals(rs.getString(7)) && "ON".equals(rs.getString(8));
    long applyingMicros = rs.getLong(9);
    boolean applying = !rs.wasNull();
    GtidSet errant = writable ? GtidSet.EMPTY : own(executed.subtract(timeline.latest()), uuid);
    Duration lag = Duration.ZERO;
    if (!writable) {
      lag = timeline.lagOf(executed);
      if (applying && !lag.isZero()) {
        // The transaction being applied was committed on the source that long ago: exact.
        Duration applyingAge = Duration.ofNanos(Math.max(0, applyingMicros) * 1000);
        lag = applyingAge.compareTo(lag) > 0 ? applyingAge : lag;
      }
    }
    return new NodeState(
        config.name(),
        Availability.AVAILABLE,
        "",
        uuid,
        writable,
        superReadOnly,
        replica,
        replicating,
        gtidModeOn,
        executed,
        errant,
        config.filteredTables(),
        lag);
  }

  private static GtidSet own(GtidSet transactions, String uuid) {
    return transactions.uuids().contains(UUID.fromString(uuid))
        ? transactions.intersection(GtidSet.parse(uuid + ":1-" + GtidSet.MAX_GNO))
        : GtidSet.EMPTY;
  }

  synchronized void close() {
    Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // The connection is being dropped because it failed; nothing more to learn from it.
      }
    }
  }
}

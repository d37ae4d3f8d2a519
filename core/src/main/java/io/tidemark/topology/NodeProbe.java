package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.postgres.PostgresServer;
import io.tidemark.topology.NodeState.Availability;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads one node's role, replication state, executed GTIDs and applier timestamps in one round
 * trip, on a connection of its own with short connect and read timeouts, so that a slow node delays
 * only its own probe. A PostgreSQL node ({@code jdbc:postgresql:}) is read as {@link
 * PostgresServer} reads it: a standby is a replica, replicating while its WAL receiver streams and
 * its replay is not paused; it has no errant transactions, as a standby cannot write.
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

  /** PostgreSQL's SQLSTATEs of refused credentials and of a role or database refused entry. */
  private static final Set<String> POSTGRES_AUTH_FAILED = Set.of("28P01", "28000");

  private final NodeConfig config;
  private final boolean postgres;
  private final String url;
  private final int readMillis;
  private @Nullable Connection connection;

  NodeProbe(NodeConfig config, Duration connectTimeout, Duration readTimeout) {
    this.config = config;
    this.postgres = config.jdbcUrl().startsWith("jdbc:postgresql:");
    this.readMillis = (int) Math.min(Integer.MAX_VALUE, readTimeout.toMillis());
    String separator = config.jdbcUrl().contains("?") ? "&" : "?";
    // PgJDBC counts its timeouts in whole seconds; the read timeout is set in milliseconds once
    // connected instead.
    this.url =
        postgres
            ? config.jdbcUrl()
                + separator
                + "connectTimeout="
                + Math.max(1, (connectTimeout.toMillis() + 999) / 1000)
            : config.jdbcUrl()
                + separator
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
        if (postgres) {
          c.setNetworkTimeout(Runnable::run, readMillis);
        }
      }
      if (postgres) {
        return readPostgres(PostgresServer.read(c), timeline);
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(QUERY)) {
        rs.next();
        return read(rs, timeline);
      }
    } catch (SQLException e) {
      close();
      boolean refused =
          postgres
              ? POSTGRES_AUTH_FAILED.contains(e.getSQLState())
              : e.getErrorCode() == ACCESS_DENIED;
      Availability availability = refused ? Availability.AUTH_FAILED : Availability.UNREACHABLE;
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

  private NodeState readPostgres(PostgresServer server, SourceTimeline timeline) {
    GtidSet executed = server.executed();
    boolean standby = server.standby();
    return new NodeState(
        config.name(),
        Availability.AVAILABLE,
        postgresProblems(server),
        server.id(),
        !standby,
        false,
        standby,
        standby && server.receiving() && !server.replayPaused(),
        true,
        executed,
        GtidSet.EMPTY,
        config.filteredTables(),
        standby ? timeline.lagOf(executed) : Duration.ZERO);
  }

  /** What the role lacks on this node, in words that say what to grant; empty when nothing. */
  private static String postgresProblems(PostgresServer server) {
    List<String> problems = new ArrayList<>();
    if (server.receiverHidden()) {
      problems.add(
          "its WAL receiver is hidden from this role, so the standby counts as having replayed"
              + " nothing (GRANT pg_monitor TO the role)");
    }
    if (!server.historiesReadable()) {
      problems.add(
          "this role cannot read timeline histories, so tokens written before a failover would"
              + " be refused after it (GRANT EXECUTE ON FUNCTION pg_read_file(text) TO the role, in"
              + " the database it connects to)");
    }
    return String.join("; ", problems);
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

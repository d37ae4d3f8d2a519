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

  /** MySQL's "SELECT command denied to user ... for table ...". */
  private static final int TABLE_ACCESS_DENIED = 1142;

  /** What the MySQL probe reads besides global variables, which a user needs SELECT on. */
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
    Connection c = connection;
    try {
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
      if (!postgres && c != null && e.getErrorCode() == TABLE_ACCESS_DENIED) {
        return privilegesMissing(c, e);
      }
      close();
      boolean refused =
          postgres
              ? POSTGRES_AUTH_FAILED.contains(e.getSQLState())
              : e.getErrorCode() == ACCESS_DENIED;
      Availability availability = refused ? Availability.AUTH_FAILED : Availability.UNREACHABLE;
      return NodeState.failed(config.name(), availability, String.valueOf(e.getMessage()));
    } catch (RuntimeException e) {
      // An answer that cannot be read (a set beyond the parser's limits, say) must not escape:
      // the scheduler would stop probing the node for good, its last state frozen.
      close();
      return NodeState.failed(
          config.name(), Availability.UNREACHABLE, "its probe answer could not be read: " + e);
    }
  }

  /**
   * A MySQL user granted the application's data only may not read performance_schema's replication
   * tables: which of them it lacks, as the statements that grant them to its account.
   */
  private NodeState privilegesMissing(Connection c, SQLException denied) {
    try {
      String account = mySqlAccount(c);
      List<String> grants = new ArrayList<>();
      for (String table : REPLICATION_TABLES) {
        if (!readable(c, "performance_schema." + table)) {
          grants.add("GRANT SELECT ON performance_schema." + table + " TO " + account + ";");
        }
      }
      return NodeState.failed(
          config.name(),
          Availability.PRIVILEGES_MISSING,
          "its user "
              + account
              + " may not read the replication state Tidemark probes: "
              + denied.getMessage(),
          grants);
    } catch (SQLException e) {
      close();
      return NodeState.failed(
          config.name(), Availability.PRIVILEGES_MISSING, String.valueOf(denied.getMessage()));
    }
  }

  /** {@code CURRENT_USER()} as an account name in a statement: {@code 'user'@'host'}. */
  private static String mySqlAccount(Connection c) throws SQLException {
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

  private NodeState read(ResultSet rs, SourceTimeline timeline) throws SQLException {
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
        List.of(),
        uuid,
        writable,
        superReadOnly,
        replica,
        replicating,
        replicatesFrom,
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
        server.grants(),
        server.id(),
        !standby,
        false,
        standby,
        standby && server.receiving() && !server.replayPaused(),
        null,
        true,
        executed,
        GtidSet.EMPTY,
        config.filteredTables(),
        standby ? timeline.lagOf(executed) : Duration.ZERO);
  }

  /** What the role lacks on this node, and what it costs; empty when nothing. */
  private static String postgresProblems(PostgresServer server) {
    List<String> problems = new ArrayList<>();
    if (server.receiverHidden()) {
      problems.add(
          "its WAL receiver is hidden from this role, so the standby counts as having replayed"
              + " nothing");
    }
    if (!server.historiesReadable()) {
      problems.add(
          "this role cannot read timeline histories in database "
              + server.database()
              + ", so tokens written before a failover would be refused after it");
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

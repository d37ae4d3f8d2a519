package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.Failures;
import io.tidemark.topology.NodeState.Availability;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads one node's role, replication state, executed positions and applier timestamps in one round
 * trip, on a connection of its own with short connect and read timeouts, so that a slow node delays
 * only its own probe. What is read, and how, is the node's {@link Dialect}'s.
 */
final class NodeProbe {

  private final NodeConfig config;
  private final Dialect dialect;
  private final String url;
  private final int readMillis;
  private @Nullable Connection connection;

  NodeProbe(NodeConfig config, Duration connectTimeout, Duration readTimeout) {
    this.config = config;
    this.dialect = config.dialect();
    this.readMillis = (int) Math.min(Integer.MAX_VALUE, readTimeout.toMillis());
    this.url = dialect.probeUrl(config.jdbcUrl(), connectTimeout, readTimeout);
  }

  /**
   * Probes the node; {@code timeline} says what the source executed lately, to tell how far behind
   * a replica is and which of its own transactions the source lacks. A connection kept from an
   * earlier probe that fails at once (reset by something between this process and the server, or
   * closed by the server while idle) is no news about the node: the probe connects again once
   * before it reports the node. One that fails only at the read timeout (a frozen server) is not
   * tried again, so a hung node is reported as soon as before.
   */
  synchronized NodeState probe(SourceTimeline timeline) {
    boolean kept = connection != null;
    long started = System.nanoTime();
    try {
      return probeOnce(timeline);
    } catch (SQLException e) {
      long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
      if (kept && Failures.isConnectionFailure(e) && elapsedMillis < readMillis / 2) {
        try {
          return probeOnce(timeline);
        } catch (SQLException again) {
          return failed(again);
        }
      }
      return failed(e);
    }
  }

  private NodeState probeOnce(SourceTimeline timeline) throws SQLException {
    Connection c = connection;
    Dialect server = null;
    try {
      if (c == null || c.isClosed()) {
        c = DriverManager.getConnection(url, config.user(), config.password());
        connection = c;
      }
      // A jdbc:mysql: URL may name a MariaDB server: the server's dialect reads it.
      server = Dialect.of(c);
      return read(server.probe(c, readMillis), timeline, Dialect.product(server, c));
    } catch (SQLException e) {
      NodeState denied = server == null || c == null ? null : privilegesMissing(server, c, e);
      if (denied != null) {
        return denied;
      }
      close();
      throw e;
    } catch (RuntimeException e) {
      // An answer that cannot be read (a set beyond the parser's limits, say) must not escape:
      // the scheduler would stop probing the node for good, its last state frozen.
      close();
      return NodeState.failed(
          config.name(), Availability.UNREACHABLE, "its probe answer could not be read: " + e);
    }
  }

  private NodeState failed(SQLException e) {
    Availability availability =
        dialect.credentialsRefused(e) ? Availability.AUTH_FAILED : Availability.UNREACHABLE;
    return NodeState.failed(config.name(), availability, String.valueOf(e.getMessage()));
  }

  /**
   * A user granted the application's data only may not read what the probe reads: what it lacks, as
   * the statements that grant it; {@code null} when {@code denied} is another failure.
   */
  private @Nullable NodeState privilegesMissing(Dialect server, Connection c, SQLException denied) {
    try {
      Dialect.ProbeGrants grants = server.probeGrants(c, denied);
      if (grants == null) {
        return null;
      }
      return NodeState.failed(
          config.name(),
          Availability.PRIVILEGES_MISSING,
          "its user "
              + grants.account()
              + " may not read the replication state Tidemark probes: "
              + denied.getMessage(),
          grants.statements());
    } catch (SQLException e) {
      close();
      return NodeState.failed(
          config.name(), Availability.PRIVILEGES_MISSING, String.valueOf(denied.getMessage()));
    }
  }

  private NodeState read(Dialect.NodeFacts facts, SourceTimeline timeline, String server) {
    GtidSet executed = facts.executed();
    boolean writable = facts.writable();
    GtidSet errant =
        writable || !facts.ownWrites()
            ? GtidSet.EMPTY
            : own(executed.subtract(timeline.latest()), facts.id());
    Duration lag = Duration.ZERO;
    if (!writable) {
      lag = timeline.lagOf(executed);
      Duration applyingAge = facts.applyingAge();
      if (applyingAge != null && !lag.isZero() && applyingAge.compareTo(lag) > 0) {
        // The transaction being applied was committed on the source that long ago: exact.
        lag = applyingAge;
      }
    }
    return new NodeState(
        config.name(),
        Availability.AVAILABLE,
        facts.problems(),
        facts.grants(),
        facts.id(),
        writable,
        facts.superReadOnly(),
        facts.replica(),
        facts.replicating(),
        facts.replicatesFrom(),
        facts.positionsOn(),
        executed,
        errant,
        config.filteredTables(),
        lag,
        server);
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

package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the last probe of a node found.
 *
 * @param name the node's configured name
 * @param availability whether it answered, and if not why
 * @param detail the probe's error, or what the node's settings or the probe's user lack; empty when
 *     nothing
 * @param grants statements that give the node's user what the probe found it lacks, each a whole
 *     statement for an administrator to run on the source (grants replicate); empty when nothing
 * @param serverUuid its {@code server_uuid} (PostgreSQL: address, port and start time as the server
 *     sees them), or {@code null} when never reached
 * @param writable whether it accepts writes ({@code read_only} off)
 * @param superReadOnly whether {@code super_read_only} is on
 * @param replica whether it has a replication channel configured
 * @param replicating whether its replication receiver and applier both run
 * @param replicatesFrom the {@code server_uuid} of the source its replication receiver is connected
 *     or connecting to now (its applier may be stopped), or {@code null} when the receiver is
 *     stopped or there is none, or it is not told (PostgreSQL)
 * @param gtidModeOn whether {@code gtid_mode} is {@code ON}; always for PostgreSQL, whose WAL
 *     positions need no setting
 * @param gtidExecuted its {@code gtid_executed}
 * @param errant transactions of its own {@code server_uuid} the source lacks: written on the
 *     replica directly (errant GTIDs), so its data may differ from the source's
 * @param filteredTables tables its replication filters leave out (from its configuration)
 * @param lag how far behind the source it is; {@link Duration#ZERO} for a caught-up replica or the
 *     source, and an upper bound when the exact figure cannot be read
 * @param server the server's product and version, as "MySQL 8.0.15", "MariaDB 10.11.19" or
 *     "PostgreSQL 15.18", or {@code null} when never reached
 */
public record NodeState(
    String name,
    Availability availability,
    String detail,
    List<String> grants,
    @Nullable String serverUuid,
    boolean writable,
    boolean superReadOnly,
    boolean replica,
    boolean replicating,
    @Nullable String replicatesFrom,
    boolean gtidModeOn,
    GtidSet gtidExecuted,
    GtidSet errant,
    Set<String> filteredTables,
    Duration lag,
    @Nullable String server) {

  public NodeState {
    grants = List.copyOf(grants);
  }

  /** Whether the node answered its probe, and if not, why. */
  public enum Availability {
    /** Answered its last probe. */
    AVAILABLE,
    /** Refused the probe's credentials: a configuration error, never treated as healthy. */
    AUTH_FAILED,
    /**
     * Accepted the login but refused what the probe reads: its user lacks privileges, which {@link
     * NodeState#grants} gives. A configuration error, never treated as healthy.
     */
    PRIVILEGES_MISSING,
    /** Did not answer within the probe's timeouts, or the connection failed. */
    UNREACHABLE,
    /** Not probed yet. */
    UNKNOWN
  }

  static NodeState unknown(String name) {
    return failed(name, Availability.UNKNOWN, "");
  }

  /** A node whose probe failed, as {@code availability} and {@code detail} say: nothing known. */
  public static NodeState failed(String name, Availability availability, String detail) {
    return failed(name, availability, detail, List.of());
  }

  /** A node whose user lacks privileges: nothing known but the {@code grants} that would help. */
  static NodeState failed(
      String name, Availability availability, String detail, List<String> grants) {
    return new NodeState(
        name,
        availability,
        detail,
        grants,
        null,
        false,
        false,
        false,
        false,
        null,
        false,
        GtidSet.EMPTY,
        GtidSet.EMPTY,
        Set.of(),
        Duration.ZERO,
        null);
  }

  public boolean available() {
    return availability == Availability.AVAILABLE;
  }

  /**
   * {@link NodeRole#SOURCE} for an available node that accepts writes, {@link NodeRole#REPLICA} for
   * a node with a replication channel, {@link NodeRole#UNKNOWN} when the probe could not tell.
   */
  public NodeRole role() {
    if (available() && writable) {
      return NodeRole.SOURCE;
    }
    return replica ? NodeRole.REPLICA : NodeRole.UNKNOWN;
  }

  /**
   * Whether reads may run here: an available read-only replica in GTID mode without errant GTIDs. A
   * stopped applier alone does not disqualify it; its growing lag does, past the threshold.
   */
  public boolean readable() {
    return available() && replica && !writable && gtidModeOn && errant.isEmpty();
  }

  /** Whether reads of {@code tables} may run here: readable, and none of them filtered out. */
  public boolean readable(Set<String> tables) {
    return readable() && tables.stream().noneMatch(filteredTables::contains);
  }
}

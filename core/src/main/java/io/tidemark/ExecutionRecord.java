package io.tidemark;

import java.time.Duration;

/**
 * Where one read ran and why: the node, its role, the reason code, how long it waited for the
 * replica, and how long the whole read took.
 *
 * @param node the server that answered, by its {@code server_uuid}, or empty when none did
 * @param role {@link NodeRole#REPLICA}, {@link NodeRole#SOURCE}, or {@link NodeRole#NONE} when none
 *     answered
 * @param reason why it ran there, or why it failed
 * @param waited time spent waiting for the replica to execute the token
 * @param elapsed time of the whole read
 */
public record ExecutionRecord(
    String node, NodeRole role, Reason reason, Duration waited, Duration elapsed) {

  /** Whether the read returned data. */
  public boolean served() {
    return reason.served();
  }
}

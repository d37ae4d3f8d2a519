package io.tidemark;

import java.time.Duration;

/**
 * Where one read ran and why: the node, its role, the reason code, and where its time went: taking
 * connections, waiting for the replica, running the query, and the whole read (the rest is
 * Tidemark's checks and the round trips they take).
 *
 * @param node the server that answered, by its {@code server_uuid}, or empty when none did
 * @param role {@link NodeRole#REPLICA}, {@link NodeRole#SOURCE}, or {@link NodeRole#NONE} when none
 *     answered
 * @param reason why it ran there, or why it failed
 * @param acquiring time spent taking connections from their pools, and permits to do so
 * @param waited time spent waiting for the replica to execute the token
 * @param querying time the query ran, on the node that answered and on any that did not
 * @param elapsed time of the whole read
 */
public record ExecutionRecord(
    String node,
    NodeRole role,
    Reason reason,
    Duration acquiring,
    Duration waited,
    Duration querying,
    Duration elapsed) {

  /** Whether the read returned data. */
  public boolean served() {
    return reason.served();
  }
}

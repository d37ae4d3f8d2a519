package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Lets many reads that need the same replica to catch up share one server-side wait: the first
 * becomes the leader and waits on its connection; later reads with the same token, routed to the
 * same replica, follow, waiting in memory without a connection, and are told whether the leader's
 * wait succeeded.
 */
final class WaitCoalescer {

  private final List<Lead> leads = new ArrayList<>();

  /** Either the leader's outcome to wait for, or the caller's own {@link Lead}. */
  sealed interface Turn permits Follow, Lead {}

  /** A wait already running for the same token. */
  record Follow(CompletableFuture<Boolean> executed) implements Turn {}

  /**
   * The caller waits on the server; it must {@link #finish} when done, whatever happened (a second
   * call changes nothing).
   */
  final class Lead implements Turn {
    private final String node;
    private final GtidSet required;
    private final CompletableFuture<Boolean> executed = new CompletableFuture<>();

    private Lead(String node, GtidSet required) {
      this.node = node;
      this.required = required;
    }

    void finish(boolean reached) {
      synchronized (WaitCoalescer.this) {
        leads.remove(this);
      }
      executed.complete(reached);
    }
  }

  /** The turn of a read that needs {@code required} and is routed to the replica {@code node}. */
  synchronized Turn join(String node, GtidSet required) {
    for (Lead lead : leads) {
      // Only an equal token: a leader waiting for more could keep a follower whose own token
      // the replica already has waiting for nothing.
      if (lead.node.equals(node) && lead.required.equals(required)) {
        return new Follow(lead.executed);
      }
    }
    Lead lead = new Lead(node, required);
    leads.add(lead);
    return lead;
  }
}

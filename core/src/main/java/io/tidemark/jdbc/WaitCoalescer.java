package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Lets many reads that need the same replica to catch up share one server-side wait: the first
 * becomes the leader and waits on its connection; later reads with the same token, routed to the
 * same replica, follow, waiting in memory without a connection, and are told whether the leader's
 * wait succeeded.
 *
 * <p>When it did, the followers are let go in waves, not all at once: as many as there are free
 * permits to read, then one more each time one of them is done. Woken together, hundreds of them
 * would only queue again for the few connections, each woken twice, on the cores the replica needs
 * for their queries. When the wait failed, all go at once: each decides for itself what next.
 */
final class WaitCoalescer {

  private final List<Lead> leads = new ArrayList<>();
  private final IntSupplier wave;

  /**
   * @param wave how many followers may go at once when a wait succeeds (at least one goes)
   */
  WaitCoalescer(IntSupplier wave) {
    this.wave = wave;
  }

  /** Either the caller's turn to wait behind a leader, or the caller's own {@link Lead}. */
  sealed interface Turn permits Follow, Lead {}

  /**
   * The caller waits on the server; it must {@link #finish} when done, whatever happened (a second
   * call changes nothing).
   */
  final class Lead implements Turn {
    private final String node;
    private final GtidSet required;
    private final ArrayDeque<Follow> waiting = new ArrayDeque<>();
    private @Nullable Boolean reached;

    private Lead(String node, GtidSet required) {
      this.node = node;
      this.required = required;
    }

    void finish(boolean reached) {
      List<Follow> go = new ArrayList<>();
      synchronized (WaitCoalescer.this) {
        if (this.reached != null) {
          return;
        }
        this.reached = reached;
        leads.remove(this);
        int count = reached ? Math.max(1, wave.getAsInt()) : waiting.size();
        for (int i = 0; i < count && !waiting.isEmpty(); i++) {
          go.add(waiting.poll().release());
        }
      }
      go.forEach(Follow::wake);
    }

    private void releaseNext() {
      Follow next;
      synchronized (WaitCoalescer.this) {
        next = waiting.isEmpty() ? null : waiting.poll().release();
      }
      if (next != null) {
        next.wake();
      }
    }
  }

  /**
   * A wait already running for the same token, to {@link #await}; a follower let go after a
   * successful wait must say when it is {@link #done}, so that the next one goes.
   */
  final class Follow implements Turn {
    private final Lead lead;
    private final Thread thread = Thread.currentThread();
    private boolean released;
    private boolean done;

    private Follow(Lead lead) {
      this.lead = lead;
    }

    /**
     * Waits until let go: whether the leader's wait succeeded, or {@code null} when {@code
     * timeoutNanos} (of {@link System#nanoTime}) ran out or the thread was interrupted first.
     */
    @Nullable Boolean await(long timeoutNanos) {
      long end = System.nanoTime() + timeoutNanos;
      while (true) {
        synchronized (WaitCoalescer.this) {
          if (released) {
            return lead.reached;
          }
          long left = end - System.nanoTime();
          if (left <= 0 || Thread.currentThread().isInterrupted()) {
            lead.waiting.remove(this);
            return null;
          }
        }
        LockSupport.parkNanos(this, end - System.nanoTime());
      }
    }

    /** Lets the next follower go; only the first call counts. */
    void done() {
      synchronized (WaitCoalescer.this) {
        if (done || !released) {
          return;
        }
        done = true;
      }
      lead.releaseNext();
    }

    private Follow release() {
      released = true;
      return this;
    }

    private void wake() {
      LockSupport.unpark(thread);
    }
  }

  /** The turn of a read that needs {@code required} and is routed to the replica {@code node}. */
  synchronized Turn join(String node, GtidSet required) {
    for (Lead lead : leads) {
      // Only an equal token: a leader waiting for more could keep a follower whose own token
      // the replica already has waiting for nothing.
      if (lead.node.equals(node) && lead.required.equals(required)) {
        Follow follow = new Follow(lead);
        lead.waiting.add(follow);
        return follow;
      }
    }
    Lead lead = new Lead(node, required);
    leads.add(lead);
    return lead;
  }
}

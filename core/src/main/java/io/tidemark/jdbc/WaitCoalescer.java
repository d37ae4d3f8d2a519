package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Lets many reads that need the same replica to catch up share one wait: the first becomes the
 * leader and waits on its connection; later reads routed to the same replica follow, waiting in
 * memory without a connection, and are let go once the replica has their token, or told that the
 * leader's wait ended without it, to decide again.
 *
 * <p>Whom a read follows depends on what the leader's wait sees ({@link Dialect.WaitSight}), so
 * that one connection per replica waits for many tokens. A wait that tells only whether its own
 * token was reached is followed by reads with the same token alone. One that reads what the replica
 * has executed when it returns (MySQL's, PostgreSQL 19's) is followed by reads whose token goes at
 * least as far as the leader's in each of its origins (a token names its writes, not all those
 * before them): a replica commits an origin's transactions in order (as it does by default), so the
 * leader's wait ends no later than the replica has the follower's, while a leader waiting for more
 * could keep a follower whose own token the replica already has waiting for nothing. Its end lets
 * go every follower whose token the replica has by then ({@linkplain #observed observed}). One that
 * reads it at each look while it goes on (PostgreSQL's polls, before 19) is followed by every read
 * routed to that replica, whatever its token: each look lets go those whose token the replica has.
 * When a leader's wait ends, the followers it did not see with their token stay waiting: the
 * nearest of them leads the next wait, and the others follow it.
 *
 * <p>Followers that may go are let go in waves, not all at once: as many as there are free permits
 * to read (at least one while none is going), then one more each time one of them is done. Woken
 * together, hundreds of them would only queue again for the few connections, each woken twice, on
 * the cores the replica needs for their queries.
 */
final class WaitCoalescer {

  private final List<Lead> leads = new ArrayList<>();
  private final Map<String, Going> going = new HashMap<>();
  private final IntSupplier wave;

  /**
   * A replica's followers that may go, and how many let go are not done yet: each replica's waves
   * are its own, so that followers slow on one (frozen, say) hold none of another's back.
   */
  private static final class Going {
    private final ArrayDeque<Follow> ready = new ArrayDeque<>();
    private int count;
  }

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
    private final Dialect.WaitSight sight;
    private final List<Follow> waiting = new ArrayList<>();
    private boolean finished;

    private Lead(String node, GtidSet required, Dialect.WaitSight sight) {
      this.node = node;
      this.required = required;
      this.sight = sight;
    }

    /**
     * Ends the lead: with {@code reached}, the followers with this lead's token may go; of those
     * whose token the replica was not seen to have, one leads the next wait and the others follow
     * it.
     */
    void finish(boolean reached) {
      List<Follow> go = new ArrayList<>();
      synchronized (WaitCoalescer.this) {
        if (finished) {
          return;
        }
        finished = true;
        leads.remove(this);
        Going replica = going(node);
        List<Follow> behind = new ArrayList<>();
        for (Follow follow : waiting) {
          if (reached && required.containsAll(follow.required)) {
            replica.ready.add(follow);
          } else {
            behind.add(follow);
          }
        }
        waiting.clear();
        handOver(behind, go);
        letGoWave(replica, go);
      }
      go.forEach(Follow::wake);
    }

    /**
     * Makes the nearest of {@code behind} the leader of the next wait, the others its followers:
     * woken all at once to decide again, hundreds of them would each join anew on two cores while
     * the replica needs them for its catching up. When no token among them is one that all the
     * others reach as far as (tokens of several origins), each decides for itself.
     */
    private void handOver(List<Follow> behind, List<Follow> go) {
      Follow nearest = nearest(behind);
      if (nearest == null) {
        behind.forEach(follow -> go.add(follow.release(false)));
        return;
      }
      Lead next = new Lead(node, nearest.required, sight);
      leads.add(next);
      for (Follow follow : behind) {
        if (follow != nearest) {
          follow.lead = next;
          next.waiting.add(follow);
        }
      }
      nearest.promoted = next;
      go.add(nearest.release(false));
    }

    private @Nullable Follow nearest(List<Follow> behind) {
      Follow nearest = null;
      for (Follow follow : behind) {
        if (nearest == null
            || !follow.required.equals(nearest.required)
                && reachesAsFar(nearest.required, follow.required)) {
          nearest = follow;
        }
      }
      if (nearest == null) {
        return null;
      }
      for (Follow follow : behind) {
        if (!follow.required.equals(nearest.required)
            && !follows(follow.required, nearest.required, sight)) {
          return null;
        }
      }
      return nearest;
    }
  }

  /**
   * A wait already running on the same replica, to {@link #await}; a follower let go because the
   * replica has its token must say when it is {@link #done}, so that the next one goes.
   */
  final class Follow implements Turn {
    private Lead lead;
    private final GtidSet required;
    private final Thread thread = Thread.currentThread();
    private @Nullable Boolean outcome;
    private @Nullable Lead promoted;
    private boolean done;

    private Follow(Lead lead, GtidSet required) {
      this.lead = lead;
      this.required = required;
    }

    /**
     * Waits until let go: whether the replica has the token, or {@code null} when {@code
     * timeoutNanos} (of {@link System#nanoTime}) ran out or the thread was interrupted first.
     */
    @Nullable Boolean await(long timeoutNanos) {
      long end = System.nanoTime() + timeoutNanos;
      while (true) {
        synchronized (WaitCoalescer.this) {
          if (outcome != null) {
            return outcome;
          }
          long left = end - System.nanoTime();
          if (left <= 0 || Thread.currentThread().isInterrupted()) {
            lead.waiting.remove(this);
            going(lead.node).ready.remove(this);
            return null;
          }
        }
        LockSupport.parkNanos(this, end - System.nanoTime());
      }
    }

    /**
     * The wait this follower leads now that the one it followed ended without its token, or {@code
     * null}; valid once {@link #await} returned {@code false}. Its owner must {@link Lead#finish}
     * it.
     */
    @Nullable Lead promoted() {
      synchronized (WaitCoalescer.this) {
        return promoted;
      }
    }

    /** Lets the next follower go; only the first call of one let go with its token counts. */
    void done() {
      List<Follow> go = new ArrayList<>();
      synchronized (WaitCoalescer.this) {
        if (done || !Boolean.TRUE.equals(outcome)) {
          return;
        }
        done = true;
        Going replica = going(lead.node);
        replica.count--;
        letGo(replica, go, 1);
      }
      go.forEach(Follow::wake);
    }

    private Follow release(boolean reached) {
      outcome = reached;
      return this;
    }

    private void wake() {
      LockSupport.unpark(thread);
    }
  }

  /**
   * The turn of a read that needs {@code required} and is routed to the replica {@code node}, whose
   * waits see its position as {@code sight} says.
   */
  synchronized Turn join(String node, GtidSet required, Dialect.WaitSight sight) {
    Lead followed = null;
    for (Lead lead : leads) {
      if (lead.node.equals(node)
          && (lead.required.equals(required)
              || lead.sight == sight && follows(required, lead.required, sight))
          // The leader whose token goes furthest ends the nearest to when the replica has this one.
          && (followed == null || reachesAsFar(lead.required, followed.required))) {
        followed = lead;
      }
    }
    if (followed != null) {
      Follow follow = new Follow(followed, required);
      followed.waiting.add(follow);
      return follow;
    }
    Lead lead = new Lead(node, required, sight);
    leads.add(lead);
    return lead;
  }

  /** Whether a read that needs {@code required} may follow a wait for {@code led}. */
  private static boolean follows(GtidSet required, GtidSet led, Dialect.WaitSight sight) {
    return switch (sight) {
      case OWN_POSITION -> required.equals(led);
      case WHEN_RETURNED -> reachesAsFar(required, led);
      case AS_IT_GOES -> true;
    };
  }

  /**
   * Whether {@code token} goes at least as far as {@code other} in each of {@code other}'s origins:
   * a replica applies an origin's transactions in their order, so it reaches {@code other}'s no
   * later than {@code token}'s, whether or not {@code token} holds them.
   */
  private static boolean reachesAsFar(GtidSet token, GtidSet other) {
    for (UUID origin : other.uuids()) {
      if (token.lastGno(origin) < other.lastGno(origin)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether reads wait in memory for a wait on {@code node}, or for one another's: what a wait
   * there sees of the replica's position is worth telling then ({@link #observed}).
   */
  synchronized boolean watched(String node) {
    int waits = 0;
    for (Lead lead : leads) {
      if (lead.node.equals(node) && (!lead.waiting.isEmpty() || ++waits > 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What a wait on {@code node} saw the replica had: the followers of that replica's leads whose
   * token it {@code covers} may go, in waves.
   */
  void observed(String node, Predicate<GtidSet> covers) {
    List<Follow> go = new ArrayList<>();
    synchronized (this) {
      Going replica = going(node);
      for (Lead lead : leads) {
        if (lead.node.equals(node) && !lead.waiting.isEmpty()) {
          lead.waiting.removeIf(
              follow -> {
                if (!covers.test(follow.required)) {
                  return false;
                }
                replica.ready.add(follow);
                return true;
              });
        }
      }
      letGoWave(replica, go);
    }
    go.forEach(Follow::wake);
  }

  private Going going(String node) {
    return going.computeIfAbsent(node, n -> new Going());
  }

  /**
   * Lets a wave of {@code replica}'s followers whose token it has go: as many as there are free
   * permits (at least one when none is going). Called holding the lock; the caller wakes {@code
   * go}.
   */
  private void letGoWave(Going replica, List<Follow> go) {
    int free = wave.getAsInt();
    letGo(replica, go, replica.count == 0 ? Math.max(1, free) : free);
  }

  private static void letGo(Going replica, List<Follow> go, int count) {
    for (int i = 0; i < count && !replica.ready.isEmpty(); i++) {
      go.add(replica.ready.poll().release(true));
      replica.count++;
    }
  }
}

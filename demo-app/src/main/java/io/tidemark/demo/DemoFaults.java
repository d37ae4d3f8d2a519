package io.tidemark.demo;

import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Real faults on the demo's own servers, through the testkit, for the page's buttons: one at a
 * time, each undone after the seconds asked for, on a thread of its own. Also the replication lag
 * the demo injects, held off while a fault works on the replica.
 */
final class DemoFaults implements AutoCloseable {

  /** The faults the page offers. */
  enum Fault {
    HOLD_APPLIER("Hold the replica's applier", true),
    FREEZE_REPLICA("Freeze the replica (SIGSTOP)", true),
    RESTART_REPLICA("Kill the replica, then restart it", true),
    KILL_REDIS("Kill Redis, then restart it", false),
    FAIL_OVER("Fail over to the replica (old source read-only; one way)", true);

    private final String label;
    private final boolean onReplica;

    Fault(String label, boolean onReplica) {
      this.label = label;
      this.onReplica = onReplica;
    }

    String label() {
      return label;
    }
  }

  /** Longest a fault may hold, so a click cannot take the demo down for long. */
  static final Duration MAX_HOLD = Duration.ofSeconds(30);

  /**
   * A fault as applied.
   *
   * @param fault which
   * @param startedMillis when it began
   * @param endedMillis when it was undone, or {@code null} while it holds
   * @param outcome what happened, e.g. the error of a fault that could not be applied
   */
  record Applied(Fault fault, long startedMillis, @Nullable Long endedMillis, String outcome) {}

  /**
   * @param fault a fault the page may offer
   * @param label what its button says
   * @param available whether it can be applied now (none while another holds; none on the replica
   *     after the failover)
   */
  record Offer(Fault fault, String label, boolean available) {}

  private final MySqlTopology topology;
  private final RedisServer redis;
  private final MySqlNode replica;
  private final Clock clock;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "demo-faults");
            thread.setDaemon(true);
            return thread;
          });
  private final List<Applied> applied = new ArrayList<>();
  private @Nullable ReplicationLag lag;
  private @Nullable Duration lagHeld;
  private @Nullable Duration lagReleased;
  private boolean busy;
  private boolean failedOver;

  DemoFaults(MySqlTopology topology, RedisServer redis, Clock clock) {
    this.topology = topology;
    this.redis = redis;
    this.replica = topology.replica();
    this.clock = clock;
  }

  /** Injects lag: the replica's applier held for {@code held}, then released, over and over. */
  synchronized void injectLag(Duration held, Duration released) {
    lagHeld = held;
    lagReleased = released;
    resumeLag();
  }

  synchronized List<Offer> offers() {
    List<Offer> offers = new ArrayList<>();
    for (Fault fault : Fault.values()) {
      offers.add(new Offer(fault, fault.label(), !busy && !(fault.onReplica && failedOver)));
    }
    return offers;
  }

  synchronized List<Applied> applied() {
    return List.copyOf(applied);
  }

  /**
   * Starts {@code fault}, undone after {@code hold} (the failover is not undone).
   *
   * @throws IllegalArgumentException for a hold outside 1 s to {@link #MAX_HOLD}
   * @throws IllegalStateException while another fault holds, or for a replica fault after the
   *     failover
   */
  synchronized void apply(Fault fault, Duration hold) {
    if (hold.compareTo(Duration.ofSeconds(1)) < 0 || hold.compareTo(MAX_HOLD) > 0) {
      throw new IllegalArgumentException(
          "a fault holds 1 to " + MAX_HOLD.toSeconds() + " seconds: " + hold.toSeconds());
    }
    if (busy) {
      throw new IllegalStateException("another fault holds; wait for its end");
    }
    if (fault.onReplica && failedOver) {
      throw new IllegalStateException("there is no replica any more: the demo failed over");
    }
    busy = true;
    if (fault.onReplica) {
      suspendLag();
    }
    int index = applied.size();
    applied.add(new Applied(fault, clock.millis(), null, "holds"));
    worker.execute(() -> run(fault, hold, index));
  }

  private void run(Fault fault, Duration hold, int index) {
    String outcome = "undone";
    try {
      switch (fault) {
        case HOLD_APPLIER -> {
          replica.pauseApplier();
          sleep(hold);
          replica.resumeApplier();
        }
        case FREEZE_REPLICA -> {
          replica.freeze();
          sleep(hold);
          replica.thaw();
        }
        case RESTART_REPLICA -> {
          replica.kill();
          sleep(hold);
          replica.restart();
        }
        case KILL_REDIS -> {
          redis.kill();
          sleep(hold);
          redis.restart();
        }
        case FAIL_OVER -> {
          topology.promote(replica, FormerSource.READ_ONLY);
          outcome = "the replica is the source now; the old source is read-only";
        }
      }
    } catch (RuntimeException e) {
      outcome = "failed: " + e.getMessage();
    }
    synchronized (this) {
      Applied started = applied.get(index);
      applied.set(index, new Applied(fault, started.startedMillis(), clock.millis(), outcome));
      if (fault == Fault.FAIL_OVER) {
        failedOver = true;
      } else if (fault.onReplica) {
        resumeLag();
      }
      busy = false;
    }
  }

  private static void sleep(Duration hold) {
    LockSupport.parkNanos(hold.toNanos());
  }

  private void suspendLag() {
    if (lag != null) {
      lag.close();
      lag = null;
    }
  }

  private void resumeLag() {
    if (lag == null && lagHeld != null && lagReleased != null && !failedOver) {
      lag = ReplicationLag.start(replica, lagHeld, lagReleased);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      suspendLag();
    }
  }
}

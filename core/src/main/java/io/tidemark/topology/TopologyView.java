package io.tidemark.topology;

import static io.tidemark.internal.ConfigChecks.atLeastOneMilli;

import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cluster as its servers describe themselves: every node is probed on its own schedule (the
 * refresh interval, and at once when {@link #refreshNow()} is called after a connection error or a
 * write refused as read-only), and {@link #snapshot()} returns what was last seen without waiting
 * for any probe. A node that hangs delays only its own probe, which its timeouts then end.
 */
public final class TopologyView implements AutoCloseable {

  /** Default time between two probes of a node. */
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(1);

  /** Default connect timeout of a probe. */
  public static final Duration DEFAULT_PROBE_CONNECT_TIMEOUT = Duration.ofMillis(500);

  /** Default read timeout of a probe. */
  public static final Duration DEFAULT_PROBE_READ_TIMEOUT = Duration.ofSeconds(1);

  private static final AtomicInteger VIEWS = new AtomicInteger();
  private static final System.Logger LOG = System.getLogger(TopologyView.class.getName());

  private final Map<String, NodeProbe> probes = new LinkedHashMap<>();
  private final Map<String, NodeState> states = new ConcurrentHashMap<>();

  /** Every GTID a probe saw a writable node execute: what sources have committed. */
  private GtidSet executedBySources = GtidSet.EMPTY;

  /** What sources committed and the source lacks, as of the last probe that told. */
  private volatile GtidSet notOnSource = GtidSet.EMPTY;

  /** Each node's {@code server_uuid} as its last probe that answered read it. */
  private final Map<String, String> lastUuids = new ConcurrentHashMap<>();

  /** Per node, the probe asked for that has not begun yet: later asks join it. */
  private final Map<String, CompletableFuture<Void>> queued = new ConcurrentHashMap<>();

  private final ScheduledExecutorService scheduler;
  private final Duration interval;
  private final SourceTimeline timeline;
  private final List<Runnable> afterProbe = new CopyOnWriteArrayList<>();
  private boolean splitBrainReported;

  private TopologyView(Builder b) {
    for (NodeConfig node : b.nodes) {
      if (probes.put(node.name(), new NodeProbe(node, b.connectTimeout, b.readTimeout)) != null) {
        throw new IllegalArgumentException("node name used twice: " + node.name());
      }
      states.put(node.name(), NodeState.unknown(node.name()));
    }
    this.interval = b.interval;
    this.timeline = new SourceTimeline(b.ticker);
    int id = VIEWS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    this.scheduler =
        Executors.newScheduledThreadPool(
            2 * probes.size(),
            task -> {
              Thread t =
                  new Thread(task, "tidemark-topology-" + id + "-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts building a view of {@code nodes}. */
  public static Builder builder(List<NodeConfig> nodes) {
    return new Builder(nodes);
  }

  /**
   * Probes every node once (each within its probe timeouts), then keeps probing on the interval.
   * Returns the first snapshot.
   */
  public TopologySnapshot start() {
    TopologySnapshot first = refreshNow().join();
    for (String name : probes.keySet()) {
      scheduler.scheduleWithFixedDelay(
          () -> probe(name), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return first;
  }

  /**
   * The configured name of the node whose {@code server_uuid} (PostgreSQL: its id) is {@code
   * serverUuid}, as execution records name nodes: the node that has it now, else the node whose
   * last answered probe had it (a node that stopped answering still served the reads that name it);
   * empty when neither, a rebuilt server's former id, say.
   */
  public Optional<String> nameOf(String serverUuid) {
    Optional<String> now = snapshot().nameOf(serverUuid);
    if (now.isPresent()) {
      return now;
    }
    for (Map.Entry<String, String> last : lastUuids.entrySet()) {
      if (last.getValue().equals(serverUuid)) {
        return Optional.of(last.getKey());
      }
    }
    return Optional.empty();
  }

  /** What was last seen of every node, in configuration order; never waits for a probe. */
  public TopologySnapshot snapshot() {
    List<NodeState> nodes = new ArrayList<>(probes.size());
    for (String name : probes.keySet()) {
      nodes.add(states.get(name));
    }
    return new TopologySnapshot(nodes);
  }

  /**
   * Probes every node now, without waiting; the returned future completes with the snapshot once
   * all have answered or timed out. Every probe it waits for begins after this call, and calls that
   * come while a node's probe is still queued join it, so a flood of calls (every failed read asks
   * for one) costs each node at most one probe running and one queued.
   */
  public CompletableFuture<TopologySnapshot> refreshNow() {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (String name : probes.keySet()) {
      all.add(probeSoon(name));
    }
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
        .thenApply(done -> snapshot());
  }

  private CompletableFuture<Void> probeSoon(String name) {
    CompletableFuture<Void> created = new CompletableFuture<>();
    CompletableFuture<Void> probe = queued.computeIfAbsent(name, n -> created);
    if (probe == created) {
      try {
        scheduler.execute(
            () -> {
              // Queued until it holds the node's probe: a call meanwhile still joins this one.
              synchronized (probeOf(name)) {
                queued.remove(name, created);
                try {
                  probe(name);
                  created.complete(null);
                } catch (RuntimeException | Error e) {
                  created.completeExceptionally(e);
                  throw e;
                }
              }
            });
      } catch (RejectedExecutionException e) {
        queued.remove(name, created);
        created.completeExceptionally(e);
      }
    }
    return probe;
  }

  /** The probe of a configured node: each has one from the start. */
  private NodeProbe probeOf(String name) {
    return Objects.requireNonNull(probes.get(name), () -> "no node named " + name);
  }

  private void probe(String name) {
    NodeState state = probeOf(name).probe(timeline);
    states.put(name, state);
    if (state.serverUuid() != null) {
      lastUuids.put(name, state.serverUuid());
    }
    boolean source = isSource(state);
    compareWithSource(state, source);
    if (source) {
      timeline.record(state.gtidExecuted());
    }
    reportSplitBrain();
    afterProbe.forEach(Runnable::run);
  }

  /**
   * GTIDs a former source was seen to commit that the source, as last probed, has not: writes a
   * failover lost, or ones a just-promoted source has yet to apply. Seen in the former source's
   * probes while it was writable, and in its own transactions that a node left running holds (a
   * MySQL node's errant ones). Empty while there is no single writable source. A cached value that
   * reflects any of these may be one the database no longer holds.
   */
  public GtidSet notOnSource() {
    return notOnSource;
  }

  /** Whether {@code state} could be the source: writable, and no replica left writable. */
  private boolean isSource(NodeState state) {
    return snapshot().writable().stream().anyMatch(n -> n.name().equals(state.name()));
  }

  private synchronized void compareWithSource(NodeState probed, boolean source) {
    if (source) {
      executedBySources = executedBySources.union(probed.gtidExecuted());
    }
    TopologySnapshot snapshot = snapshot();
    List<NodeState> writable = snapshot.writable();
    if (writable.size() != 1) {
      return; // mid-failover or split brain: what was known stays until one source is seen
    }
    GtidSet missing = executedBySources.subtract(writable.get(0).gtidExecuted());
    for (NodeState node : snapshot.nodes()) {
      if (!node.errant().isEmpty()) {
        missing = missing.union(node.errant());
      }
    }
    notOnSource = missing;
  }

  /** Runs {@code listener} on the probing thread after every probe, with the new state in place. */
  void afterEveryProbe(Runnable listener) {
    afterProbe.add(listener);
  }

  private synchronized void reportSplitBrain() {
    List<NodeState> writable = snapshot().writable();
    boolean split = writable.size() > 1;
    if (split && !splitBrainReported) {
      LOG.log(
          System.Logger.Level.ERROR,
          "split brain: nodes {0} all accept writes; writes are refused until one remains",
          writable.stream().map(NodeState::name).toList());
    }
    splitBrainReported = split;
  }

  /** Stops probing and closes the probes' connections. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    probes.values().forEach(NodeProbe::close);
  }

  /** Builds a {@link TopologyView}. */
  public static final class Builder {
    private final List<NodeConfig> nodes;
    private Duration interval = DEFAULT_REFRESH_INTERVAL;
    private Duration connectTimeout = DEFAULT_PROBE_CONNECT_TIMEOUT;
    private Duration readTimeout = DEFAULT_PROBE_READ_TIMEOUT;
    private Ticker ticker = Ticker.systemTicker();

    private Builder(List<NodeConfig> nodes) {
      if (nodes.isEmpty()) {
        throw new IllegalArgumentException("at least one node must be configured");
      }
      this.nodes = List.copyOf(nodes);
    }

    /** Time between two probes of a node. */
    public Builder refreshInterval(Duration interval) {
      this.interval = atLeastOneMilli("refreshInterval", interval);
      return this;
    }

    /** Connect and read timeouts of a probe. */
    public Builder probeTimeouts(Duration connect, Duration read) {
      this.connectTimeout = atLeastOneMilli("probe connect timeout", connect);
      this.readTimeout = atLeastOneMilli("probe read timeout", read);
      return this;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    public TopologyView build() {
      return new TopologyView(this);
    }
  }
}

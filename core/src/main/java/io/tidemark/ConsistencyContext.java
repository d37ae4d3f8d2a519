package io.tidemark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * What one unit of work (a request, a job) must read at least: the union of the tokens it came with
 * and of every write it committed, plus whether a write escaped capture ("dirty"), in which case
 * its reads go to the source. It also carries what the unit of work hands on: its deadline, which
 * bounds every read's wait, and the tokens of other clusters, forwarded unread.
 *
 * <p>A context is bound to the current thread with {@link #open()} or {@link #attach()}; the bound
 * one is {@link #current()}. Work handed to another thread takes it along with {@link #wrap}, or,
 * when the application has io.micrometer:context-propagation, with whatever carries that library's
 * thread locals ({@link ConsistencyContextAccessor}). A context only grows: merging is set union,
 * and dirty stays dirty.
 *
 * <pre>{@code
 * try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
 *   jdbc.update("INSERT ...");                      // captured into binding.context()
 *   String token = binding.context().gtids().toString();
 * }
 * }</pre>
 */
public final class ConsistencyContext {

  private static final ThreadLocal<@Nullable ConsistencyContext> CURRENT = new ThreadLocal<>();

  private final AtomicReference<State> state;
  private final AtomicReference<@Nullable ExecutionRecord> lastRead = new AtomicReference<>();
  private final AtomicReference<GtidSet> lost = new AtomicReference<>(GtidSet.EMPTY);
  private final Set<String> unrecordedScopes = new ConcurrentSkipListSet<>();
  private final AtomicInteger openWritingTransactions = new AtomicInteger();
  private final @Nullable Deadline deadline;
  private volatile @Nullable String writeIntent;
  private volatile boolean sharesWaits;
  private volatile @Nullable ConsistencyLevel level;
  private final AtomicReference<@Nullable Deadline> waitsEnd = new AtomicReference<>();
  // Guarded by itself; few entries, rarely touched.
  private final SortedMap<String, List<String>> forwarded = new TreeMap<>();

  /**
   * {@code reflected} is {@code gtids} itself (the same instance) until a read's server is seen to
   * have executed more than the read waited for; the common case costs no second set.
   */
  private record State(GtidSet gtids, GtidSet reflected, @Nullable String dirtyBecause) {

    State with(GtidSet gtids, GtidSet reflected) {
      return new State(gtids, reflected.equals(gtids) ? gtids : reflected, dirtyBecause);
    }
  }

  private ConsistencyContext(GtidSet initial, @Nullable Deadline deadline) {
    this.state = new AtomicReference<>(new State(initial, initial, null));
    this.deadline = deadline;
  }

  /**
   * A new context requiring {@code initial}, not bound to any thread, whose reads end by {@code
   * deadline} (none: each read's own budget); a unit of work that spans several threads binds it on
   * each with {@link #attach()}.
   */
  public static ConsistencyContext create(GtidSet initial, @Nullable Deadline deadline) {
    return new ConsistencyContext(Objects.requireNonNull(initial, "initial"), deadline);
  }

  /** Binds a new, empty context to this thread until the scope closes. */
  public static Binding open() {
    return new ConsistencyContext(GtidSet.EMPTY, null).attach();
  }

  /** Binds a new context requiring {@code initial} (e.g. a verified request token). */
  public static Binding open(GtidSet initial) {
    return create(initial, null).attach();
  }

  /**
   * The context bound to this thread, or a new one bound for good when there is none; open a {@link
   * Binding} per unit of work instead of relying on the latter, or tokens pile up on pooled
   * threads.
   */
  public static ConsistencyContext current() {
    ConsistencyContext context = CURRENT.get();
    if (context == null) {
      context = new ConsistencyContext(GtidSet.EMPTY, null);
      CURRENT.set(context);
    }
    return context;
  }

  /** The context bound to this thread, without binding one. */
  public static @Nullable ConsistencyContext currentOrNull() {
    return CURRENT.get();
  }

  /**
   * Binds {@code context} to this thread, or unbinds when {@code null}, with no scope to close: for
   * {@link ConsistencyContextAccessor}, whose caller restores what was bound before.
   */
  static void bind(@Nullable ConsistencyContext context) {
    if (context == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(context);
    }
  }

  /** Binds this context to the current thread until the returned scope closes. */
  public Binding attach() {
    return new Binding(this, CURRENT.get());
  }

  /**
   * Has this unit of work's reads run at {@code level} where they name none themselves: a request
   * that asked for it (the starter's {@code Consistency-Level} header).
   */
  public void requestLevel(ConsistencyLevel level) {
    this.level = Objects.requireNonNull(level, "level");
  }

  /** The level this unit of work's reads run at where they name none, or {@code null}. */
  public @Nullable ConsistencyLevel requestedLevel() {
    return level;
  }

  /**
   * Has this unit of work's reads share one wait: the first read's replica wait ends when its own
   * budget says, and the reads after it wait no longer than that, so a page with several reads
   * behind a lagging replica waits once, not once per read. A read after the shared wait ended is
   * served by a replica that already has its token, else by the source. Reads that may not fall
   * back to the source wait as their own budget says.
   */
  public void shareWaits() {
    sharesWaits = true;
  }

  /**
   * When a read of this unit of work that would wait until {@code end} must stop waiting: {@code
   * end} itself unless its waits are {@linkplain #shareWaits shared}, then the end the first read
   * set.
   */
  public Deadline waitsEnd(Deadline end) {
    if (!sharesWaits) {
      return end;
    }
    Deadline shared = waitsEnd.compareAndExchange(null, Objects.requireNonNull(end, "end"));
    return shared == null ? end : shared;
  }

  /** When the unit of work must be answered, or {@code null} when it has no deadline of its own. */
  public @Nullable Deadline deadline() {
    return deadline;
  }

  /** The union of everything merged so far. */
  public GtidSet gtids() {
    return stateNow().gtids();
  }

  /** Adds {@code gtids} (set union). */
  public void merge(GtidSet gtids) {
    Objects.requireNonNull(gtids, "gtids");
    if (!gtids.isEmpty()) {
      state.updateAndGet(
          s -> {
            GtidSet merged = s.gtids().union(gtids);
            return s.with(merged, s.reflected() == s.gtids() ? merged : s.reflected().union(gtids));
          });
    }
  }

  /**
   * Adds {@code gtids} of commits this unit of work just made (set union), which are then no longer
   * counted lost: a former source that rejoins under its {@code server_uuid} numbers its commits
   * from what it has, and may reuse the numbers of writes it lost.
   */
  public void committed(GtidSet gtids) {
    merge(gtids);
    if (!lostNow().isEmpty()) {
      lost.updateAndGet(known -> known.subtract(gtids));
    }
  }

  /**
   * Adds what a read's server had executed right after its query (monotonic reads): later reads
   * must see it, but the value that read returned may predate it, so it is not {@link #reflected()}
   * until a later read has {@link #waitedFor waited for} it.
   */
  public void observed(GtidSet executed) {
    Objects.requireNonNull(executed, "executed");
    if (!executed.isEmpty()) {
      state.updateAndGet(s -> s.with(s.gtids().union(executed), s.reflected()));
    }
  }

  /**
   * Notes that a read saw at least {@code required}, which it took from {@link #gtids()} when it
   * began: values read from now on reflect it.
   */
  public void waitedFor(GtidSet required) {
    Objects.requireNonNull(required, "required");
    State now = stateNow();
    if (now.reflected() != now.gtids()) {
      state.updateAndGet(
          s -> s.with(s.gtids(), s.reflected().union(required.intersection(s.gtids()))));
    }
  }

  /**
   * What a value read now under this context is known to reflect: {@link #gtids()} but for what
   * reads' servers were {@link #observed seen} to execute after their queries and no read has
   * waited for since. A cache tags a value it stores with this, never with more: a value tagged
   * with writes it predates would be served to their writer.
   */
  public GtidSet reflected() {
    return stateNow().reflected();
  }

  /**
   * Notes that a transaction of this unit of work wrote and has not ended: capture tells, on
   * whatever thread the transaction runs. Its GTIDs are unknown until it commits.
   */
  public void transactionWrote() {
    openWritingTransactions.incrementAndGet();
  }

  /** Notes that a transaction {@link #transactionWrote() that wrote} ended, committed or not. */
  public void transactionEnded() {
    openWritingTransactions.decrementAndGet();
  }

  /**
   * Whether a transaction of this unit of work has written and not yet ended, on any thread: no
   * token can name its writes yet, so what is handed on now (a message) must not pass for covering
   * them.
   */
  public boolean hasUncommittedWrites() {
    return openWritingTransactions.get() > 0;
  }

  /**
   * Removes {@code lost} (set difference): GTIDs a failover lost, once the loss was reported to the
   * client. No server will execute them, so a token that kept them could never be served again.
   */
  public void forgetLost(GtidSet lost) {
    Objects.requireNonNull(lost, "lost");
    if (!lost.isEmpty()) {
      state.updateAndGet(
          s -> {
            GtidSet kept = s.gtids().subtract(lost);
            return s.with(kept, s.reflected() == s.gtids() ? kept : s.reflected().subtract(lost));
          });
      this.lost.updateAndGet(known -> known.union(lost));
    }
  }

  /**
   * The GTIDs forgotten as lost: carried on in the answer's token, so that no cached value that
   * reflects them is served to this client elsewhere.
   */
  public GtidSet lost() {
    return lostNow();
  }

  /** Marks the context dirty: a write committed without a captured GTID; reads use the source. */
  public void markDirty(String because) {
    Objects.requireNonNull(because, "because");
    state.updateAndGet(
        s -> s.dirtyBecause() != null ? s : new State(s.gtids(), s.reflected(), because));
  }

  /** Whether a write escaped capture, so reads must go to the source. */
  public boolean isDirty() {
    return stateNow().dirtyBecause() != null;
  }

  /** Why the context is dirty, or {@code null}. */
  public @Nullable String dirtyBecause() {
    return stateNow().dirtyBecause();
  }

  /**
   * Sends this unit of work's reads to the source: it is about to write, and what it reads may be
   * written back (a form's entity loaded, changed and saved), so it must see what every client
   * committed, not only what its token names. Unlike {@link #markDirty}, the answer's token is
   * unchanged.
   */
  public void markWriteIntent(String because) {
    writeIntent = Objects.requireNonNull(because, "because");
  }

  /** Why this unit of work's reads go to the source as it is about to write, or {@code null}. */
  public @Nullable String writeIntent() {
    return writeIntent;
  }

  /**
   * Notes that the scope store did not take this unit of work's committed writes under {@code
   * scope}: reads under that scope elsewhere may miss them, and the answer says so.
   */
  public void scopeNotRecorded(String scope) {
    unrecordedScopes.add(Objects.requireNonNull(scope, "scope"));
  }

  /** The scopes whose store did not take this unit of work's writes, sorted; usually none. */
  public Set<String> unrecordedScopes() {
    return Collections.unmodifiableSet(unrecordedScopes);
  }

  /**
   * Where the latest read under this context ran and why, or {@code null} before the first: for
   * responses and logs that say how a request's data was read.
   */
  public @Nullable ExecutionRecord lastRead() {
    return lastRead.get();
  }

  /** Notes a read that ran under this context; the read path calls it for every read. */
  public void recordRead(ExecutionRecord record) {
    lastRead.set(Objects.requireNonNull(record, "record"));
  }

  /**
   * The encoded tokens of other clusters this unit of work carries, by cluster, sorted: never
   * verified here, since only the cluster that owns a token can.
   */
  public SortedMap<String, List<String>> forwardedTokens() {
    synchronized (forwarded) {
      return new TreeMap<>(forwarded);
    }
  }

  /**
   * Takes the tokens of other clusters that arrived, in a request or in a downstream service's
   * answer. For each cluster in {@code arrived}, its tokens replace those that were {@code sent} to
   * where they came from: that service either merged them into its answer (it owns the cluster) or
   * passed them back unchanged. Tokens of the cluster that came from elsewhere in the meantime are
   * kept.
   */
  public void forward(Map<String, List<String>> arrived, Map<String, List<String>> sent) {
    synchronized (forwarded) {
      arrived.forEach(
          (cluster, tokens) -> {
            List<String> kept = new ArrayList<>(forwarded.getOrDefault(cluster, List.of()));
            kept.removeAll(sent.getOrDefault(cluster, List.of()));
            for (String token : tokens) {
              if (!kept.contains(token)) {
                kept.add(token);
              }
            }
            forwarded.put(cluster, List.copyOf(kept));
          });
    }
  }

  /** {@code task} running with this context bound, on whatever thread runs it. */
  public Runnable wrap(Runnable task) {
    Objects.requireNonNull(task, "task");
    return () -> {
      Binding binding = attach();
      try {
        task.run();
      } finally {
        binding.close();
      }
    };
  }

  /** {@code task} running with this context bound, on whatever thread runs it. */
  public <T> Callable<T> wrap(Callable<T> task) {
    Objects.requireNonNull(task, "task");
    return () -> {
      Binding binding = attach();
      try {
        return task.call();
      } finally {
        binding.close();
      }
    };
  }

  /** The state now; set at construction, and every update of it makes a new one. */
  private State stateNow() {
    return Objects.requireNonNull(state.get());
  }

  /** The GTIDs forgotten as lost now; set at construction, and never set to null. */
  private GtidSet lostNow() {
    return Objects.requireNonNull(lost.get());
  }

  @Override
  public String toString() {
    State s = stateNow();
    return "ConsistencyContext("
        + s.gtids().toSingleLineString()
        + (s.dirtyBecause() != null ? ", dirty: " + s.dirtyBecause() : "")
        + ")";
  }

  /** A binding of a context to a thread; closing it restores what was bound before. */
  public static final class Binding implements AutoCloseable {
    private final ConsistencyContext context;
    private final @Nullable ConsistencyContext previous;
    private final Thread thread;

    private Binding(ConsistencyContext context, @Nullable ConsistencyContext previous) {
      this.context = context;
      this.previous = previous;
      this.thread = Thread.currentThread();
      CURRENT.set(context);
    }

    public ConsistencyContext context() {
      return context;
    }

    /**
     * Restores the previous binding.
     *
     * @throws IllegalStateException when closed on another thread than the one it was opened on
     */
    @Override
    public void close() {
      if (Thread.currentThread() != thread) {
        throw new IllegalStateException("scope opened on " + thread + " closed on another thread");
      }
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }
}

package io.tidemark.topology;

import static java.util.stream.Collectors.toUnmodifiableSet;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.NodeRoutes;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Picks the node a statement runs on from the latest {@link TopologySnapshot}: the one writable
 * source for writes (refusing when there are none or several), and for reads a readable replica
 * within the lag threshold, preferring one already known to have executed the read's token, then
 * the least lagging, taking turns among equals.
 */
public final class NodeSelector {

  /** Default lag above which a replica is not chosen. */
  public static final Duration DEFAULT_MAX_LAG = Duration.ofSeconds(5);

  private final @Nullable TopologyView view;
  private final Supplier<TopologySnapshot> snapshots;
  private final Duration maxLag;
  private final AtomicInteger turn = new AtomicInteger();

  /**
   * @throws IllegalArgumentException when {@code maxLag} is negative
   */
  public NodeSelector(TopologyView view, Duration maxLag) {
    this(Objects.requireNonNull(view, "view"), view::snapshot, maxLag);
  }

  NodeSelector(Supplier<TopologySnapshot> snapshots, Duration maxLag) {
    this(null, snapshots, maxLag);
  }

  private NodeSelector(
      @Nullable TopologyView view, Supplier<TopologySnapshot> snapshots, Duration maxLag) {
    this.view = view;
    this.snapshots = snapshots;
    if (maxLag.isNegative()) {
      throw new IllegalArgumentException("maxLag must not be negative: " + maxLag);
    }
    this.maxLag = maxLag;
  }

  /**
   * Routes for a {@link io.tidemark.jdbc.ConsistentReader}: each read on the node this selector
   * picks from the latest view, through that node's pool, and a refresh of the view when a
   * connection to a node fails.
   *
   * @param pools each configured node's pool, by node name
   * @throws IllegalArgumentException when a node of the view has no pool
   */
  public NodeRoutes routes(Map<String, DataSource> pools) {
    return new SelectedNodeRoutes(view(), this, pools);
  }

  /**
   * A {@link DataSource} for writes that connects to whichever node is the writable source when the
   * connection is asked for, and refuses (with the reason) when none or several are, capturing each
   * commit as {@link CapturingDataSource} does. A statement refused because the node turned
   * read-only is refused as {@code NO_WRITABLE_SOURCE}; that, or a failed connection, makes the
   * view check the roles at once; a wait for a connection of a node ends, refused, when the view
   * sees the node is no longer the source.
   *
   * @param pools each configured node's pool, by node name
   */
  public CapturingDataSource writer(Map<String, DataSource> pools) {
    WriterDataSource writer = new WriterDataSource(view(), this, pools);
    return CapturingDataSource.wrap(writer, writer::failed);
  }

  private TopologyView view() {
    if (view == null) {
      throw new IllegalStateException("this selector was made without a view");
    }
    return view;
  }

  /**
   * A choice of node, or the reason there is none.
   *
   * @param node the chosen node, or {@code null}
   * @param reason why it was chosen ({@link Reason#REPLICA_CAUGHT_UP} when known to hold the
   *     token), or why nothing was
   * @param detail what was seen, for messages
   */
  public record Choice(@Nullable NodeState node, Reason reason, String detail) {

    public boolean chosen() {
      return node != null;
    }
  }

  /** The writable source now; {@link Reason#SPLIT_BRAIN} or {@link Reason#NO_WRITABLE_SOURCE}. */
  public Choice writer() {
    List<NodeState> writable = snapshots.get().writable();
    if (writable.size() == 1) {
      return new Choice(writable.get(0), Reason.SOURCE_BY_POLICY, "");
    }
    if (writable.isEmpty()) {
      return new Choice(null, Reason.NO_WRITABLE_SOURCE, "no node accepts writes");
    }
    return new Choice(
        null,
        Reason.SPLIT_BRAIN,
        "nodes "
            + writable.stream().map(NodeState::name).toList()
            + " all accept writes; refusing to pick one");
  }

  /**
   * A replica for a read that needs {@code required} (empty for bounded staleness only). {@link
   * Reason#NO_READABLE_REPLICA} or {@link Reason#REPLICA_LAG_EXCEEDED} when none fits.
   */
  public Choice replicaFor(GtidSet required) {
    return replicaFor(required, Set.of());
  }

  /** As {@link #replicaFor(GtidSet)}, among replicas whose filters keep {@code tables}. */
  public Choice replicaFor(GtidSet required, Set<String> tables) {
    Set<String> wanted =
        tables.stream().map(t -> t.toLowerCase(Locale.ROOT)).collect(toUnmodifiableSet());
    List<NodeState> readable =
        snapshots.get().nodes().stream().filter(n -> n.readable(wanted)).toList();
    if (readable.isEmpty()) {
      return new Choice(null, Reason.NO_READABLE_REPLICA, "no available read-only replica");
    }
    List<NodeState> fresh = readable.stream().filter(n -> n.lag().compareTo(maxLag) <= 0).toList();
    if (fresh.isEmpty()) {
      return new Choice(
          null,
          Reason.REPLICA_LAG_EXCEEDED,
          "every replica lags more than " + maxLag.toMillis() + " ms");
    }
    List<NodeState> holding =
        required.isEmpty()
            ? List.of()
            : fresh.stream().filter(n -> n.gtidExecuted().containsAll(required)).toList();
    if (!holding.isEmpty()) {
      return new Choice(takeTurn(holding), Reason.REPLICA_CAUGHT_UP, "");
    }
    Duration least = fresh.stream().map(NodeState::lag).min(Comparator.naturalOrder()).get();
    List<NodeState> leastLagging = fresh.stream().filter(n -> n.lag().equals(least)).toList();
    return new Choice(
        takeTurn(leastLagging),
        required.isEmpty() ? Reason.REPLICA_NO_TOKEN : Reason.REPLICA_AFTER_WAIT,
        "");
  }

  private NodeState takeTurn(List<NodeState> equals) {
    return equals.get(Math.floorMod(turn.getAndIncrement(), equals.size()));
  }
}

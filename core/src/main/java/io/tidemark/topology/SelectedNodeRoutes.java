package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.jdbc.NodeRoutes;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;

/**
 * Routes of a {@link io.tidemark.jdbc.ConsistentReader} chosen per read by a {@link NodeSelector}:
 * each node's own pool, the node picked from the latest view, and a refresh of the view when a
 * connection to a node fails.
 */
final class SelectedNodeRoutes implements NodeRoutes {

  private final TopologyView view;
  private final NodeSelector selector;
  private final Map<String, DataSource> pools;

  /**
   * @param pools each configured node's pool, by node name
   * @throws IllegalArgumentException when a node of the view has no pool
   */
  SelectedNodeRoutes(TopologyView view, NodeSelector selector, Map<String, DataSource> pools) {
    this.view = Objects.requireNonNull(view, "view");
    this.selector = Objects.requireNonNull(selector, "selector");
    this.pools = Map.copyOf(pools);
    for (NodeState node : view.snapshot().nodes()) {
      if (!this.pools.containsKey(node.name())) {
        throw new IllegalArgumentException("no pool for node " + node.name());
      }
    }
  }

  @Override
  public Route replicaFor(GtidSet required, Set<String> tables) {
    return route(selector.replicaFor(required, tables));
  }

  @Override
  public Route source() {
    return route(selector.writer());
  }

  @Override
  public void failed(String node) {
    view.refreshNow();
  }

  @Override
  public GtidSet notOnSource() {
    return view.notOnSource();
  }

  @Override
  public CompletableFuture<?> refresh() {
    return view.refreshNow();
  }

  private Route route(NodeSelector.Choice choice) {
    NodeState node = choice.node();
    return node == null
        ? Route.none(choice.reason(), choice.detail())
        : Route.to(
            Objects.requireNonNull(pools.get(node.name()), () -> "no pool for node " + node.name()),
            node.name(),
            choice.reason());
  }
}

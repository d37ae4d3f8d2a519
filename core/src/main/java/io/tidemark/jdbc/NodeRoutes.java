package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link ConsistentReader} sends a read and its fallback: to fixed data sources, or to
 * nodes chosen when the read runs (see {@code io.tidemark.topology.NodeSelector#routes}).
 */
public interface NodeRoutes {

  /**
   * The replica for a read that needs {@code required} and reads {@code tables} (empty when not
   * told), or why there is none.
   */
  Route replicaFor(GtidSet required, Set<String> tables);

  /** The source, for fallbacks and verification, or why there is none. */
  Route source();

  /** Told when a connection to {@code node} failed, so that roles are checked again soon. */
  void failed(String node);

  /**
   * Looks at the nodes' roles again now, without waiting; the future completes once they were seen
   * afresh. Routes that do not look at nodes complete it at once.
   */
  default CompletableFuture<?> refresh() {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * GTIDs a former source was seen to commit that the source has not: writes a failover lost, known
   * before any read's token names them. Routes that do not look at nodes know none.
   */
  default GtidSet notOnSource() {
    return GtidSet.EMPTY;
  }

  /**
   * A data source to use, or the reason there is none.
   *
   * @param dataSource where to connect, or {@code null} when there is no node to use
   * @param node the node's name, for records
   * @param reason why this node (or why none)
   * @param detail what was seen, for messages
   */
  record Route(@Nullable DataSource dataSource, String node, Reason reason, String detail) {

    /** A route to {@code dataSource}. */
    public static Route to(DataSource dataSource, String node, Reason reason) {
      return new Route(Objects.requireNonNull(dataSource, "dataSource"), node, reason, "");
    }

    /** No route, for {@code reason}. */
    public static Route none(Reason reason, String detail) {
      return new Route(null, "", reason, detail);
    }
  }

  /** Always the same replica and source. */
  static NodeRoutes fixed(DataSource replica, DataSource source) {
    Objects.requireNonNull(replica, "replica");
    Objects.requireNonNull(source, "source");
    return new NodeRoutes() {
      @Override
      public Route replicaFor(GtidSet required, Set<String> tables) {
        return Route.to(replica, "replica", Reason.REPLICA_AFTER_WAIT);
      }

      @Override
      public Route source() {
        return Route.to(source, "source", Reason.SOURCE_FALLBACK);
      }

      @Override
      public void failed(String node) {}
    };
  }
}

package io.tidemark.spring.autoconfigure;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.topology.NodeConfig;
import io.tidemark.topology.NodeSelector;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import io.tidemark.topology.TopologyView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.NestedExceptionUtils;

/**
 * The configured nodes: the source (the application's own pool) and the replicas (a pool each, made
 * here), the view that probes them, and the selector that picks one per connection. A bean for the
 * starter's own configuration (observability reads its view); not for application code.
 */
public final class NodeRuntime implements AutoCloseable {

  private static final Log log = LogFactory.getLog(NodeRuntime.class);

  private static final String FAIL_FAST_OFF =
      " To start anyway, set tidemark.topology.fail-fast=false.";

  private final TopologyView view;
  private final NodeSelector selector;
  private final Map<String, DataSource> pools;
  private final List<HikariDataSource> replicaPools;
  private final CapturingDataSource writes;

  private NodeRuntime(
      TopologyView view,
      NodeSelector selector,
      Map<String, DataSource> pools,
      List<HikariDataSource> replicaPools) {
    this.view = view;
    this.selector = selector;
    this.pools = pools;
    this.replicaPools = replicaPools;
    this.writes = selector.writer(pools);
  }

  /**
   * Starts watching {@code source} (reached for probes as {@code sourceNode} says) and the
   * replicas, each read through a pool of its own: those of the service connections when there is
   * any, else those of {@code tidemark.replicas}.
   *
   * @throws TidemarkStartupException when no replica is configured, or, with fail-fast on, a node
   *     refuses the credentials or has GTID mode off
   */
  static NodeRuntime start(
      TidemarkProperties properties,
      NodeConfig sourceNode,
      DataSource source,
      List<ReplicaConnectionDetails> connections,
      Binder settings,
      List<ReplicaPoolCustomizer> customizers) {
    List<TidemarkProperties.Replica> replicas = replicas(properties.getReplicas(), connections);
    if (replicas.isEmpty()) {
      throw new TidemarkStartupException(
          "Tidemark has no replica to read from: tidemark.replicas is empty.",
          "Add the replicas of spring.datasource.url, e.g. tidemark.replicas[0].url="
              + "jdbc:mysql://replica-1:3306/shop, or set tidemark.enabled=false.");
    }
    List<NodeConfig> nodes = new ArrayList<>();
    nodes.add(sourceNode);
    Map<String, DataSource> pools = new LinkedHashMap<>();
    pools.put(sourceNode.name(), source);
    List<HikariDataSource> replicaPools = new ArrayList<>();
    Set<String> names = new HashSet<>(Set.of(sourceNode.name()));
    try {
      for (int i = 0; i < replicas.size(); i++) {
        NodeConfig node = replicaNode(replicas.get(i), i, sourceNode);
        if (!names.add(node.name())) {
          throw new TidemarkStartupException(
              "Two Tidemark nodes are called " + node.name() + ".",
              "Give every entry of tidemark.replicas a distinct name, other than "
                  + sourceNode.name()
                  + ".");
        }
        nodes.add(node);
        HikariConfig config = replicaPoolConfig(node, replicas.get(i), i, settings, customizers);
        reliedOn(config, node, properties.getRead().getMaxReplicaReads());
        HikariDataSource pool = ReplicaPools.create(config);
        replicaPools.add(pool);
        pools.put(node.name(), pool);
      }
      TidemarkProperties.Topology topology = properties.getTopology();
      TopologyView view =
          TopologyView.builder(nodes)
              .refreshInterval(topology.getRefreshInterval())
              .probeTimeouts(topology.getProbeConnectTimeout(), topology.getProbeReadTimeout())
              .build();
      TopologySnapshot first = view.start();
      if (topology.isFailFast()) {
        checkUsable(first, view);
      }
      return new NodeRuntime(
          view, new NodeSelector(view, topology.getMaxLag()), Map.copyOf(pools), replicaPools);
    } catch (RuntimeException e) {
      replicaPools.forEach(HikariDataSource::close);
      throw e;
    }
  }

  /**
   * The replicas of the service connections, each with the name, filtered tables and pool settings
   * of the configured replica at its index; the configured replicas when there is no connection.
   */
  static List<TidemarkProperties.Replica> replicas(
      List<TidemarkProperties.Replica> configured, List<ReplicaConnectionDetails> connections) {
    if (connections.isEmpty()) {
      return configured;
    }
    List<TidemarkProperties.Replica> replicas = new ArrayList<>();
    for (int i = 0; i < connections.size(); i++) {
      ReplicaConnectionDetails connection = connections.get(i);
      TidemarkProperties.Replica own =
          i < configured.size() ? configured.get(i) : new TidemarkProperties.Replica();
      TidemarkProperties.Replica replica = new TidemarkProperties.Replica();
      replica.setName(own.getName());
      replica.setFilteredTables(own.getFilteredTables());
      replica.setHikari(own.getHikari());
      replica.setUrl(connection.getJdbcUrl());
      replica.setUsername(
          connection.getUsername() != null ? connection.getUsername() : own.getUsername());
      replica.setPassword(
          connection.getPassword() != null ? connection.getPassword() : own.getPassword());
      replicas.add(replica);
    }
    if (configured.size() > connections.size()) {
      log.warn(
          "Tidemark reads from the "
              + connections.size()
              + " replica(s) of the service connections: tidemark.replicas["
              + connections.size()
              + "] and after are not used.");
    }
    return replicas;
  }

  private static NodeConfig replicaNode(
      TidemarkProperties.Replica replica, int index, NodeConfig source) {
    String name = replica.getName() != null ? replica.getName() : "replica-" + (index + 1);
    String url = replica.getUrl();
    if (url == null || url.isBlank()) {
      throw new TidemarkStartupException(
          "tidemark.replicas[" + index + "].url is not set.",
          "Set it to the replica's JDBC URL, e.g. jdbc:mysql://replica-1:3306/shop.");
    }
    try {
      return new NodeConfig(
          name,
          url,
          replica.getUsername() != null ? replica.getUsername() : source.user(),
          replica.getPassword() != null ? replica.getPassword() : source.password(),
          Set.copyOf(replica.getFilteredTables()));
    } catch (IllegalArgumentException e) {
      throw new TidemarkStartupException(
          "tidemark.replicas[" + index + "] is invalid: " + e.getMessage(),
          "Use a MySQL, MariaDB or PostgreSQL JDBC URL (jdbc:mysql://host:port/database,"
              + " jdbc:mariadb://host:port/database, jdbc:postgresql://host:port/database) and a"
              + " non-blank name.");
    }
  }

  /**
   * The application's pool settings ({@code spring.datasource.hikari.*}), then the replica's own,
   * then the customizers: timeouts, keepalive, driver properties, init SQL and the like.
   */
  private static HikariConfig replicaPoolConfig(
      NodeConfig node,
      TidemarkProperties.Replica replica,
      int index,
      Binder settings,
      List<ReplicaPoolCustomizer> customizers) {
    HikariConfig config = new HikariConfig();
    try {
      settings.bind("spring.datasource.hikari", Bindable.ofInstance(config));
      Map<String, String> own = new LinkedHashMap<>();
      replica.getHikari().forEach((key, value) -> own.put("hikari." + key, value));
      new Binder(new MapConfigurationPropertySource(own))
          .bind("hikari", Bindable.ofInstance(config));
    } catch (BindException e) {
      throw new TidemarkStartupException(
          "The pool settings of tidemark.replicas["
              + index
              + "] are invalid: "
              + NestedExceptionUtils.getMostSpecificCause(e).getMessage(),
          "Use HikariCP's settings as spring.datasource.hikari.* names them, e.g."
              + " tidemark.replicas["
              + index
              + "].hikari.connection-timeout=2s.");
    }
    customizers.forEach(customizer -> customizer.customize(node.name(), config));
    return config;
  }

  /** What reads rely on, over any setting: set last. */
  private static void reliedOn(HikariConfig config, NodeConfig node, int maxReads) {
    config.setPoolName("tidemark-" + node.name());
    config.setJdbcUrl(node.jdbcUrl());
    config.setUsername(node.user());
    config.setPassword(node.password());
    // As many connections as reads may hold at once, so that a read given its turn finds one;
    // idle ones are few, since most replica reads are short.
    config.setMaximumPoolSize(maxReads);
    config.setMinimumIdle(Math.min(2, maxReads));
    // Left writable by default: after a failover this pool takes the new source's writes. Reads
    // leave their connections read-only, writes make them writable again, each only when it
    // changes; reads only go to nodes the server itself reports read-only.
    config.setReadOnly(false);
    // A read's wait and query must not share a transaction begun before the replica caught up.
    config.setAutoCommit(true);
    // Validation is a ping bounded by the read's deadline, not a query of the application's.
    config.setConnectionTestQuery(null);
    config.setDataSourceClassName(null);
    config.setDataSource(null);
    config.setDataSourceJNDI(null);
    // The pool must not fail the application's start when a replica is down: reads skip it.
    config.setInitializationFailTimeout(-1);
  }

  private static void checkUsable(TopologySnapshot snapshot, TopologyView view) {
    List<String> lacking = new ArrayList<>();
    Set<String> grants = new LinkedHashSet<>();
    for (NodeState node : snapshot.nodes()) {
      String problem = null;
      String action = null;
      if (node.availability() == NodeState.Availability.AUTH_FAILED) {
        problem = "Node " + node.name() + " refused Tidemark's login: " + node.detail();
        action = "Check the node's username and password (tidemark.replicas[*].username/password).";
      } else if (node.availability() == NodeState.Availability.PRIVILEGES_MISSING
          || !node.grants().isEmpty()) {
        lacking.add(node.name() + ": " + node.detail());
        grants.addAll(node.grants());
      } else if (node.available() && !node.gtidModeOn()) {
        problem =
            "Node "
                + node.name()
                + (node.detail().isEmpty()
                    ? " runs with gtid_mode not ON; tokens cannot be checked."
                    : " " + node.detail() + "; tokens cannot be checked.");
        action =
            "Turn on GTIDs on every node (MySQL: gtid_mode=ON, enforce_gtid_consistency=ON;"
                + " MariaDB: gtid_strict_mode=ON), or set tidemark.enabled=false.";
      }
      if (problem != null) {
        view.close();
        throw new TidemarkStartupException(problem, action + FAIL_FAST_OFF);
      }
    }
    if (!lacking.isEmpty()) {
      view.close();
      throw new TidemarkStartupException(
          "Tidemark's database user lacks privileges it needs:\n  " + String.join("\n  ", lacking),
          (grants.isEmpty()
                  ? "Grant the node's user what the message names."
                  : "Run as an administrator on the source (grants replicate to the replicas; on"
                      + " PostgreSQL, connected to the application's database), then start"
                      + " again:\n  "
                      + String.join("\n  ", grants))
              + "\nWhat each server needs is in Tidemark's docs/servers.md."
              + FAIL_FAST_OFF);
    }
  }

  /** The view of the nodes' roles and lag, probed in the background. */
  public TopologyView view() {
    return view;
  }

  NodeSelector selector() {
    return selector;
  }

  /** Each node's pool, by node name. */
  Map<String, DataSource> pools() {
    return pools;
  }

  /** Connections to the node that is the writable source now, their commits captured. */
  public CapturingDataSource writes() {
    return writes;
  }

  @Override
  public void close() {
    view.close();
    replicaPools.forEach(HikariDataSource::close);
  }
}

package io.tidemark.spring.actuate;

import io.tidemark.ReadPolicy;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the topology as last probed (never a probe of its own, so a health check cannot stall
 * on a frozen server).
 *
 * <p>{@code DOWN} when the application cannot write or cannot read consistently: no available node
 * accepts writes, more than one does (split brain, writes are refused), or no replica is readable
 * and {@code tidemark.read.policy} refuses reads rather than sending them to the source. Otherwise
 * {@code UP}, with the trouble that leaves reads working listed under {@code problems}: no readable
 * replica while reads fall back to the source, a replica that is unreachable, refuses the login,
 * has errant GTIDs or GTID mode off, has stopped replicating, or lags past {@code
 * tidemark.topology.max-lag}. The configured policy decides, not a method's own: it is what most
 * reads do. A custom status such as "DEGRADED" is deliberately not used: Boot's default aggregation
 * would rank an unknown status above {@code DOWN} and the whole application would report it.
 */
final class TidemarkHealthIndicator implements HealthIndicator {

  private final Supplier<TopologySnapshot> topology;
  private final Duration maxLag;
  private final ReadPolicy policy;

  TidemarkHealthIndicator(Supplier<TopologySnapshot> topology, Duration maxLag, ReadPolicy policy) {
    this.topology = topology;
    this.maxLag = maxLag;
    this.policy = policy;
  }

  @Override
  public Health health() {
    TopologySnapshot snapshot = topology.get();
    List<String> down = new ArrayList<>();
    List<NodeState> writable = snapshot.writable();
    if (writable.isEmpty()) {
      down.add("no writable source: no available node accepts writes");
    } else if (writable.size() > 1) {
      down.add(
          "split brain: "
              + String.join(", ", writable.stream().map(NodeState::name).toList())
              + " all accept writes; writes are refused");
    }
    boolean noReadableReplica = snapshot.nodes().stream().noneMatch(NodeState::readable);
    boolean fallsBack = policy == ReadPolicy.FALLBACK_TO_SOURCE;
    if (noReadableReplica && !fallsBack) {
      down.add("no readable replica: reads under @ReadYourWrites cannot run on a replica");
    }
    List<String> problems = new ArrayList<>(down);
    if (noReadableReplica && fallsBack) {
      problems.add("no readable replica: reads under @ReadYourWrites fall back to the source");
    }
    Map<String, Object> nodes = new LinkedHashMap<>();
    for (NodeState node : snapshot.nodes()) {
      nodes.put(node.name(), details(node));
      String problem =
          snapshot.writableReplicas().contains(node)
              ? "is a replica that accepts writes (read_only off) and replicates from the source:"
                  + " it is neither written to nor read from until read_only is on"
              : problem(node);
      if (problem != null) {
        problems.add(node.name() + " " + problem);
      }
    }
    Health.Builder health = down.isEmpty() ? Health.up() : Health.down();
    health.withDetail("nodes", nodes);
    if (!problems.isEmpty()) {
      health.withDetail("problems", problems);
    }
    return health.build();
  }

  private @Nullable String problem(NodeState node) {
    return switch (node.availability()) {
      case AUTH_FAILED -> "refused Tidemark's login: " + node.detail();
      case PRIVILEGES_MISSING -> "lacks privileges: " + node.detail();
      case UNREACHABLE -> "is unreachable: " + node.detail();
      case UNKNOWN -> "has not been probed yet";
      case AVAILABLE -> availableProblem(node);
    };
  }

  private @Nullable String availableProblem(NodeState node) {
    if (!node.grants().isEmpty()) {
      return "lacks privileges: " + node.detail();
    }
    if (!node.gtidModeOn()) {
      return node.detail().isEmpty() ? "runs with gtid_mode not ON" : node.detail();
    }
    if (!node.replica()) {
      return null;
    }
    if (!node.errant().isEmpty()) {
      return "has errant GTIDs " + node.errant().toSingleLineString() + "; it is not read from";
    }
    if (node.writable()) {
      return "is a replica that accepts writes (read_only off); it is not read from";
    }
    if (!node.replicating()) {
      return "is not replicating: its receiver or applier is stopped";
    }
    if (node.lag().compareTo(maxLag) > 0) {
      return "lags "
          + node.lag().toMillis()
          + " ms, more than tidemark.topology.max-lag ("
          + maxLag.toMillis()
          + " ms); it is not read from";
    }
    return null;
  }

  private static Map<String, Object> details(NodeState node) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("role", node.role().label());
    details.put("availability", node.availability().name());
    if (!node.detail().isEmpty()) {
      details.put("detail", node.detail());
    }
    if (!node.grants().isEmpty()) {
      details.put("grants", node.grants());
    }
    if (node.serverUuid() != null) {
      details.put("serverUuid", node.serverUuid());
    }
    details.put("readable", node.readable());
    if (node.replica()) {
      details.put("replicating", node.replicating());
      details.put("lagMillis", node.lag().toMillis());
    }
    if (!node.errant().isEmpty()) {
      details.put("errant", node.errant().toSingleLineString());
    }
    return details;
  }
}

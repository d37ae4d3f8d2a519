package io.tidemark.spring.actuate;

import io.tidemark.ExecutionRecord;
import io.tidemark.Reason;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.topology.ExecutionHistory;
import io.tidemark.topology.NodeState;
import io.tidemark.topology.TopologySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code tidemark} actuator endpoint: every node as last probed, the recent reads newest first,
 * the count of reads by node and reason since start, and the write capture's counts.
 */
@Endpoint(id = "tidemark")
final class TidemarkEndpoint {

  private final Supplier<TopologySnapshot> topology;
  private final NodeNames names;
  private final ExecutionHistory history;
  private final Supplier<CapturingDataSource.Stats> captures;

  TidemarkEndpoint(
      Supplier<TopologySnapshot> topology,
      NodeNames names,
      ExecutionHistory history,
      Supplier<CapturingDataSource.Stats> captures) {
    this.topology = topology;
    this.names = names;
    this.history = history;
    this.captures = captures;
  }

  @ReadOperation
  public Report report() {
    TopologySnapshot snapshot = topology.get();
    Map<String, Long> counts = history.counts();
    return new Report(
        snapshot.nodes().stream().map(NodeReport::of).toList(),
        history.recent().stream().map(r -> ReadReport.of(r, names)).toList(),
        counts,
        Offload.of(counts),
        captures.get());
  }

  /** What the endpoint answers. */
  public record Report(
      List<NodeReport> nodes,
      List<ReadReport> recent,
      Map<String, Long> counts,
      Offload offload,
      CapturingDataSource.Stats capture)
      implements OperationResponseBody {}

  /**
   * How much of the reading the replicas took: the reads served since start, the share a replica
   * served, and why the others ran on the source (a {@link Reason} name each).
   */
  public record Offload(long served, double replicaShare, Map<String, Long> onTheSourceBecause) {

    /** From the counts per {@code node/REASON}. */
    static Offload of(Map<String, Long> counts) {
      long served = 0;
      long onReplicas = 0;
      Map<String, Long> onSource = new TreeMap<>();
      for (Map.Entry<String, Long> count : counts.entrySet()) {
        Reason reason =
            Reason.valueOf(count.getKey().substring(count.getKey().lastIndexOf('/') + 1));
        if (!reason.served()) {
          continue;
        }
        served += count.getValue();
        if (reason.name().startsWith("REPLICA_")) {
          onReplicas += count.getValue();
        } else {
          onSource.merge(reason.name(), count.getValue(), Long::sum);
        }
      }
      return new Offload(served, served == 0 ? 0 : (double) onReplicas / served, onSource);
    }
  }

  /** One node as last probed. */
  public record NodeReport(
      String name,
      String role,
      String availability,
      String detail,
      @Nullable String serverUuid,
      boolean writable,
      boolean superReadOnly,
      boolean replicating,
      boolean gtidModeOn,
      boolean readable,
      long lagMillis,
      String gtidExecuted,
      String errant,
      Set<String> filteredTables) {

    static NodeReport of(NodeState node) {
      return new NodeReport(
          node.name(),
          node.role().label(),
          node.availability().name(),
          node.detail(),
          node.serverUuid(),
          node.writable(),
          node.superReadOnly(),
          node.replicating(),
          node.gtidModeOn(),
          node.readable(),
          node.lag().toMillis(),
          node.gtidExecuted().toSingleLineString(),
          node.errant().toSingleLineString(),
          node.filteredTables());
    }
  }

  /** One recent read: where it ran (configured name and server UUID), why, and how long it took. */
  public record ReadReport(
      String node,
      String serverUuid,
      String role,
      String reason,
      boolean served,
      double waitedMillis,
      double elapsedMillis) {

    static ReadReport of(ExecutionRecord record, NodeNames names) {
      return new ReadReport(
          names.of(record.node()),
          record.node(),
          record.role().label(),
          record.reason().name(),
          record.served(),
          millis(record.waited()),
          millis(record.elapsed()));
    }

    private static double millis(Duration duration) {
      return duration.toNanos() / 1_000_000.0;
    }
  }
}

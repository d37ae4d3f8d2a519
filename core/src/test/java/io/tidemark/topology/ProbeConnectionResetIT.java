package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A probe's connection that something between it and the server reset (a proxy, a load balancer, an
 * idle timeout) is no news about the server: the probe connects again before it reports the node
 * unreachable, so that writes are not refused as having no writable source until the next probe.
 */
@ExtendWith(TestkitExtension.class)
class ProbeConnectionResetIT {

  private static final String LINK = "probe-connection-reset";

  @Test
  void aResetProbeConnectionIsReplacedAndTheSourceStaysWritable(MySqlTopology topology)
      throws Exception {
    MySqlNode source = topology.source();
    NodeConfig throughLink =
        new NodeConfig(
            source.name(), source.jdbcUrlThrough(LINK), source.user(), source.password());
    try (TopologyView view =
        TopologyView.builder(List.of(throughLink, TopologyViewIT.config(topology.replica())))
            .refreshInterval(Duration.ofHours(1))
            .build()) {
      view.start();
      assertThat(view.snapshot().node(source.name()).orElseThrow().writable()).isTrue();

      source.link(LINK).resetConnections();
      view.refreshNow().get(10, TimeUnit.SECONDS);

      NodeState after = view.snapshot().node(source.name()).orElseThrow();
      assertThat(after.availability())
          .as(after.detail())
          .isEqualTo(NodeState.Availability.AVAILABLE);
      assertThat(after.writable()).isTrue();
    } finally {
      source.link(LINK).close();
    }
  }
}

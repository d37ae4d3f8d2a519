package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.ShopRows;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadListener;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Writes and reads routed by the view, with no configuration change across role changes. */
class SelectedRoutesIT {

  @Test
  void writesFollowTheSourceAcrossAFailoverAndNoneLandsOnAReadOnlyNode() throws Exception {
    try (Cluster cluster = new Cluster(Duration.ofSeconds(5))) {
      cluster.write(1, "before");
      assertThat(cluster.read(1, ReadPolicy.FAIL).value()).isEqualTo("before");

      cluster.topology.promote(cluster.replica1, FormerSource.READ_ONLY);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (true) {
        try {
          cluster.write(2, "after");
          break;
        } catch (SQLException refused) {
          // Refused by the old source until the view sees the new roles; never written there.
          assertThat(System.nanoTime()).isLessThan(deadline);
        }
      }

      assertThat(cluster.replica1.queryString("SELECT v FROM shop.t WHERE id = 2"))
          .isEqualTo("after");
      assertThat(cluster.oldSource.queryString("SELECT COUNT(*) FROM shop.t WHERE id = 2"))
          .isEqualTo("0");
    }
  }

  @Test
  void aNewSourcesFirstWriteIsReadBeforeTheViewsNextLookAtTheRoles() throws Exception {
    // Probes five minutes apart: only the reader itself can notice the failover in time.
    try (Cluster cluster = new Cluster(Duration.ofSeconds(5), Duration.ofMinutes(5))) {
      cluster.write(1, "before");
      assertThat(cluster.read(1, ReadPolicy.FALLBACK_TO_SOURCE).value()).isEqualTo("before");

      cluster.topology.promote(cluster.replica1, FormerSource.READ_ONLY);
      cluster.replica1.execute("INSERT INTO shop.t VALUES (2, 'after')");
      cluster.binding.context().merge(GtidSet.parse(cluster.replica1.gtidExecuted()));

      ReadResult<String> read = cluster.read(2, ReadPolicy.FALLBACK_TO_SOURCE);
      assertThat(read.value()).isEqualTo("after");
    }
  }

  /**
   * A write the promoted replica never received is known lost as soon as the view has seen the new
   * source, before any read's token asks for it: a cache must not serve a value reflecting it.
   */
  @Test
  void aWriteAFailoverLostIsKnownOnceTheViewSeesTheNewSource() throws Exception {
    try (Cluster cluster = new Cluster(Duration.ofSeconds(5))) {
      cluster.write(1, "kept");
      cluster.topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      GtidSet kept = GtidSet.parse(cluster.oldSource.gtidExecuted());
      cluster.replica1.stopReceiver();
      cluster.replica2.stopReceiver();
      cluster.write(2, "lost");
      GtidSet lost = GtidSet.parse(cluster.oldSource.gtidExecuted()).subtract(kept);
      cluster.view.refreshNow().join();
      assertThat(cluster.reader.lostWrites()).as("before the failover").isEqualTo(GtidSet.EMPTY);

      cluster.topology.promote(cluster.replica1, FormerSource.READ_ONLY);
      cluster.view.refreshNow().join();

      assertThat(cluster.reader.lostWrites().containsAll(lost)).as("%s", lost).isTrue();
      assertThat(cluster.reader.lostWrites().intersection(kept).isEmpty()).isTrue();
    }
  }

  @Test
  void readsAvoidAReplicaPastTheLagThresholdAndReportWhenAllAre() throws Exception {
    try (Cluster cluster = new Cluster(Duration.ofMillis(500))) {
      cluster.replica1.pauseApplier();
      try {
        cluster.write(1, "fresh");
        cluster.awaitLagging("replica1");
        for (int i = 0; i < 4; i++) {
          ReadResult<String> read = cluster.read(1, ReadPolicy.FAIL);
          assertThat(read.value()).isEqualTo("fresh");
          assertThat(read.record().node()).isEqualTo(cluster.replica2.serverUuid());
        }

        cluster.replica2.pauseApplier();
        cluster.write(2, "fresh too");
        cluster.awaitLagging("replica2");
        long started = System.nanoTime();
        assertThatThrownBy(() -> cluster.read(2, ReadPolicy.FAIL))
            .isInstanceOfSatisfying(
                ConsistentReadException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.REPLICA_LAG_EXCEEDED));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        ReadResult<String> fallback = cluster.read(2, ReadPolicy.FALLBACK_TO_SOURCE);
        assertThat(fallback.value()).isEqualTo("fresh too");
        assertThat(fallback.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      } finally {
        cluster.replica1.resumeApplier();
        cluster.replica2.resumeApplier();
      }
    }
  }

  @Test
  void frozenReplicaNeverMakesAReadMissItsDeadline() throws Exception {
    try (Cluster cluster = new Cluster(Duration.ofSeconds(5))) {
      cluster.write(1, "fresh");
      cluster.topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      cluster.replica2.freeze();
      try {
        for (int i = 0; i < 6; i++) {
          long started = System.nanoTime();
          ReadResult<String> read = cluster.read(1, ReadPolicy.FALLBACK_TO_SOURCE);
          assertThat(read.value()).isEqualTo("fresh");
          assertThat(Duration.ofNanos(System.nanoTime() - started))
              .as("read %d", i)
              .isLessThan(Duration.ofMillis(800 + 250));
        }
        assertThat(cluster.view.refreshNow().join().node("replica2").orElseThrow().available())
            .isFalse();
      } finally {
        cluster.replica2.thaw();
      }
    }
  }

  /** A topology, its view, a pool per node, and writes and reads routed through them. */
  private static final class Cluster implements AutoCloseable {
    final MySqlTopology topology = MySqlTopology.builder().replicas(2).start();
    final MySqlNode oldSource = topology.source();
    final MySqlNode replica1 = topology.replicas().get(0);
    final MySqlNode replica2 = topology.replicas().get(1);
    final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
    final TopologyView view;
    final CapturingDataSource writer;
    final ConsistentReader reader;
    ConsistencyContext.Binding binding = ConsistencyContext.open();

    Cluster(Duration maxLag) {
      this(maxLag, TopologyView.DEFAULT_REFRESH_INTERVAL);
    }

    Cluster(Duration maxLag, Duration refreshInterval) {
      ShopRows.create(oldSource);
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      for (MySqlNode node : topology.nodes()) {
        pools.put(node.name(), pool(node));
      }
      view =
          TopologyView.builder(topology.nodes().stream().map(TopologyViewIT::config).toList())
              .refreshInterval(refreshInterval)
              .build();
      view.start();
      NodeSelector selector = new NodeSelector(view, maxLag);
      Map<String, DataSource> byName = Map.copyOf(pools);
      writer = selector.writer(byName);
      reader =
          ConsistentReader.builder(new SelectedNodeRoutes(view, selector, byName))
              .listener(ReadListener.ofRecords(new ExecutionHistory(16)))
              .build();
    }

    void write(int id, String value) throws SQLException {
      ShopRows.insert(writer, id, value);
    }

    ReadResult<String> read(int id, ReadPolicy policy) throws SQLException {
      ReadOptions options =
          reader.defaults().withPolicy(policy).withTimeout(Duration.ofMillis(800));
      return reader.read(options, c -> ShopRows.value(c, id));
    }

    void awaitLagging(String node) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (view.refreshNow().join().node(node).orElseThrow().lag().toMillis() <= 600) {
        assertThat(System.nanoTime()).as("%s lagging within 15 s", node).isLessThan(deadline);
      }
    }

    private static HikariDataSource pool(MySqlNode node) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(node.jdbcUrl() + "&trackSessionState=true");
      config.setUsername(node.user());
      config.setPassword(node.password());
      config.setMaximumPoolSize(4);
      config.setMinimumIdle(0);
      config.setConnectionTimeout(2_000);
      config.setPoolName("routes-" + node.name());
      return new HikariDataSource(config);
    }

    @Override
    public void close() {
      binding.close();
      view.close();
      pools.values().forEach(HikariDataSource::close);
      topology.close();
    }
  }
}

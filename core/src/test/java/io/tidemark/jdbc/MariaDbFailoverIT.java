package io.tidemark.jdbc;

import static io.tidemark.jdbc.ReadPathContract.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.Closing;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failover on MariaDB: a replica promoted while the source had written what it never received,
 * the other replica following it, and the new source then writing as many transactions as were
 * lost, which it numbers as the lost ones were numbered. A token of a write that survived is
 * honoured on the replica that follows the new source; a token of the lost write is {@code
 * TOKEN_NOT_ON_SOURCE}, naming what is lost, never answered with the surviving rows.
 */
class MariaDbFailoverIT {

  private static final AtomicLong IDS = new AtomicLong();

  private static MariaDbTopology topology;
  private static MariaDbNode follower;
  private static GtidSet kept;
  private static GtidSet lost;
  private static long keptId;
  private static long lostId;
  private static String db;
  private static HikariDataSource sourcePool;
  private static HikariDataSource followerPool;
  private static CapturingDataSource source;

  @BeforeAll
  static void failOverAfterWritesTheReplicasNeverReceived() throws SQLException {
    topology = MariaDbTopology.builder().replicas(2).start();
    db = topology.createDatabase("failover");
    topology
        .source()
        .execute("CREATE TABLE `" + db + "`.orders (id BIGINT PRIMARY KEY, status VARCHAR(20))");
    follower = topology.replicas().get(0);
    MariaDbNode promoted = topology.replicas().get(1);
    try (HikariDataSource formerPool = pool(topology.source(), false)) {
      CapturingDataSource former = CapturingDataSource.wrap(formerPool);
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        keptId = insert(former, "kept");
        kept = binding.context().gtids();
      }
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
      for (MariaDbNode replica : List.of(follower, promoted)) {
        replica.stopReceiver();
      }
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        for (int i = 0; i < 3; i++) {
          lostId = insert(former, "lost");
        }
        lost = binding.context().gtids();
      }
    }
    topology.promote(promoted);
    sourcePool = pool(promoted, false);
    followerPool = pool(follower, true);
    source = CapturingDataSource.wrap(sourcePool);
    for (int i = 0; i < 5; i++) {
      insert(source, "numbered again");
    }
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(followerPool, sourcePool, topology);
  }

  @Test
  void theNewSourceNumberedItsWritesAsTheLostOnesWere() {
    String lostAt = topology.source().queryString("SELECT @@GLOBAL.gtid_binlog_state");

    assertThat(lostAt).as("the new source's binary log").isNotNull();
    long keptSequence = kept.lastGno(kept.uuids().iterator().next());
    long lostSequence = lost.lastGno(lost.uuids().iterator().next());
    long furthest =
        List.of(lostAt.split(",")).stream()
            .mapToLong(g -> Long.parseLong(g.substring(g.lastIndexOf('-') + 1)))
            .max()
            .orElse(0);
    assertThat(lostSequence).isGreaterThan(keptSequence);
    assertThat(furthest)
        .as("the new source numbered past the lost writes")
        .isGreaterThan(lostSequence);
  }

  @Test
  void aTokenOfTheLostWritesIsNotOnTheSourceAndNamesWhatIsLost() {
    Failovers.assertATokenOfTheLostWritesIsNotOnTheSource(
        MariaDbFailoverIT::reader,
        lost,
        kept,
        c -> status(c, lostId),
        named -> {
          assertThat(named.isEmpty()).isFalse();
          assertThat(lost.containsAll(named)).isTrue();
        });
  }

  @Test
  void aTokenOfAWriteThatSurvivedIsServedByTheReplicaFollowingTheNewSource() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().merge(kept);

      ReadResult<@Nullable String> result = reader(ReadPolicy.FAIL).read(c -> status(c, keptId));

      assertThat(result.value()).isEqualTo("kept");
      assertThat(result.record().role()).isEqualTo(NodeRole.REPLICA);
    }
  }

  @Test
  void aWriteOnTheNewSourceIsCapturedAndServedWithTheOldToken() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().merge(kept);
      long id = insert(source, "after failover");

      assertThat(binding.context().gtids().containsAll(kept)).isTrue();
      ReadResult<@Nullable String> result = reader(ReadPolicy.FAIL).read(c -> status(c, id));

      assertThat(result.value()).isEqualTo("after failover");
      assertThat(result.record().role()).isEqualTo(NodeRole.REPLICA);
    }
  }

  private static ConsistentReader reader(ReadPolicy policy) {
    return ConsistentReader.builder(followerPool, source)
        .defaults(ReadOptions.defaults().withPolicy(policy))
        .build();
  }

  private static HikariDataSource pool(MariaDbNode node, boolean forReads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:mariadb://" + node.host() + ":" + node.port() + "/" + db);
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(0);
    return forReads ? ReplicaPools.create(config) : new HikariDataSource(config);
  }

  private static long insert(DataSource source, String status) throws SQLException {
    long id = IDS.incrementAndGet();
    try (Connection c = source.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setString(2, status);
      ps.executeUpdate();
    }
    return id;
  }
}

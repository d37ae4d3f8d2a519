package io.tidemark.jdbc;

import static io.tidemark.jdbc.ReadPathContract.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.Closing;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.dialect.WalPosition;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failover on PostgreSQL: a standby promoted while the primary had written what it never
 * received, the other standby following the new timeline. A token of a write that survived is
 * honoured on the new timeline, on the new primary and on the standby that follows it; a token of
 * the lost write is {@code TOKEN_NOT_ON_SOURCE}, naming what is lost, never answered with the
 * surviving rows.
 */
class PostgresFailoverIT {

  private static PostgresTopology topology;
  private static PostgresNode promoted;
  private static PostgresNode follower;
  private static GtidSet kept;
  private static GtidSet lost;
  private static long keptId;
  private static long lostId;
  private static HikariDataSource primaryPool;
  private static HikariDataSource followerPool;
  private static CapturingDataSource source;

  @BeforeAll
  static void failOverAfterAWriteTheStandbysNeverReceived() {
    topology = PostgresTopology.builder().standbys(2).start();
    PostgresOrders orders = new PostgresOrders(topology);
    follower = topology.standbys().get(0);
    promoted = topology.standbys().get(1);
    try (HikariDataSource formerPool = orders.pool(topology.primary())) {
      CapturingDataSource former = CapturingDataSource.wrap(formerPool);
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        keptId = PostgresOrders.create(former, "kept");
        kept = binding.context().gtids();
      }
      // The token is the insert position after the commit, which may hold later WAL of other
      // sessions: the write counts as received once that whole position is.
      String keptLsn = WalPosition.text(position(kept).lsn());
      for (PostgresNode standby : topology.standbys()) {
        assertThat(standby.awaitLsn(keptLsn, Duration.ofSeconds(30))).as(standby.name()).isTrue();
      }
      // The follower stops first: it must not hold WAL the promoted standby lacks, or it could not
      // follow the new timeline.
      for (PostgresNode standby : List.of(follower, promoted)) {
        standby.stopReceiver();
        PostgresOrders.awaitTrue(
            () -> "0".equals(standby.queryString("SELECT count(*) FROM pg_stat_wal_receiver")),
            Duration.ofSeconds(30),
            standby + " stops receiving");
      }
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        lostId = PostgresOrders.create(former, "lost");
        lost = binding.context().gtids();
      }
    }
    topology.promote(promoted);
    PostgresOrders.awaitTrue(
        () -> !promoted.inRecovery(), Duration.ofSeconds(30), promoted + " is promoted");
    primaryPool = orders.pool(promoted);
    followerPool = orders.replicaPool(follower);
    source = CapturingDataSource.wrap(primaryPool);
    long timeline = promoted.timeline();
    PostgresOrders.awaitTrue(
        () ->
            String.valueOf(timeline)
                .equals(follower.queryString("SELECT received_tli FROM pg_stat_wal_receiver")),
        Duration.ofSeconds(30),
        follower + " follows timeline " + timeline);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(followerPool, primaryPool, topology);
  }

  @Test
  void theTokensNameTheOldTimelineAndTheNewPrimaryRunsOnTheNext() {
    WalPosition keptAt = position(kept);
    WalPosition lostAt = position(lost);

    assertThat(keptAt.timeline()).isEqualTo(lostAt.timeline());
    assertThat(promoted.timeline()).isEqualTo(keptAt.timeline() + 1);
    assertThat(lostAt.lsn()).isGreaterThan(keptAt.lsn());
  }

  @Test
  void aTokenOfAWriteThatSurvivedIsServedByTheStandbyFollowingTheNewTimeline() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().merge(kept);

      ReadResult<String> result = reader(ReadPolicy.FAIL).read(c -> status(c, keptId));

      assertThat(result.value()).isEqualTo("kept");
      assertThat(result.record().reason())
          .isIn(Reason.REPLICA_CAUGHT_UP, Reason.REPLICA_AFTER_WAIT);
      assertThat(result.record().node()).contains(":" + follower.port() + "@");
    }
  }

  @Test
  void aTokenOfTheLostWriteIsNotOnTheSourceAndNamesWhatIsLost() {
    Failovers.assertATokenOfTheLostWritesIsNotOnTheSource(
        PostgresFailoverIT::reader,
        lost,
        kept,
        c -> status(c, lostId),
        named -> {
          WalPosition lostFrom = position(named);
          assertThat(lostFrom.timeline()).isEqualTo(position(lost).timeline());
          assertThat(lostFrom.lsn()).isEqualTo(position(lost).lsn());
        });
  }

  @Test
  void aWriteOnTheNewTimelineIsCapturedAndServedWithTheOldToken() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().merge(kept);
      long id = PostgresOrders.create(source, "after failover");

      // The new primary's position holds the old timeline up to its switch point too.
      GtidSet token = binding.context().gtids();
      assertThat(token.uuids())
          .extracting(origin -> WalPosition.in(token, origin).timeline())
          .containsExactlyInAnyOrder(position(kept).timeline(), promoted.timeline());
      assertThat(token.containsAll(kept)).isTrue();
      ReadResult<String> result = reader(ReadPolicy.FAIL).read(c -> status(c, id));

      assertThat(result.value()).isEqualTo("after failover");
      assertThat(result.record().node()).contains(":" + follower.port() + "@");
    }
  }

  private static ConsistentReader reader(ReadPolicy policy) {
    return ConsistentReader.builder(followerPool, source)
        .defaults(ReadOptions.defaults().withPolicy(policy))
        .build();
  }

  private static WalPosition position(GtidSet token) {
    assertThat(token.uuidCount()).isEqualTo(1);
    return WalPosition.in(token, token.uuids().iterator().next());
  }
}

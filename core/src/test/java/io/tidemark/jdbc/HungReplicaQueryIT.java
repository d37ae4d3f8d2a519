package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.MySqlNode;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.TestkitExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica that stops answering in the middle of a read's query (the network to it partitioned
 * right after the read chose it): the query is cut when the replica's share of the budget is spent,
 * so a read that may fall back is served by the source within its deadline instead of being refused
 * at it.
 */
@ExtendWith(TestkitExtension.class)
class HungReplicaQueryIT {

  private static final String LINK = "hung-replica-query";
  private static final Duration BUDGET = Duration.ofSeconds(1);
  private static final Duration SLACK = Duration.ofMillis(50);

  private static MySqlNode replica;
  private static HikariDataSource replicaPool;
  private static HikariDataSource sourcePool;
  private static FaultLink link;

  @BeforeAll
  static void start(MySqlTopology topology) {
    replica = topology.replica();
    String db = topology.createDatabase("hung_query");
    link = replica.link(LINK);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(replica.jdbcUrlThrough(LINK, db));
    config.setUsername(replica.user());
    config.setPassword(replica.password());
    config.setMaximumPoolSize(2);
    config.setPoolName("hung-replica-query");
    replicaPool = ReplicaPools.create(config);
    sourcePool = Pools.tracking(topology.source(), db, 2);
  }

  @AfterEach
  void heal() {
    link.heal();
  }

  @AfterAll
  static void stop() {
    replicaPool.close();
    sourcePool.close();
    link.close();
  }

  @Test
  void aReplicaThatStopsAnsweringMidQueryLeavesTheFallbackItsReserve() throws SQLException {
    ConsistentReader reader = ConsistentReader.builder(replicaPool, sourcePool).build();
    long started = System.nanoTime();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      ReadResult<String> read =
          reader.read(
              ReadOptions.defaults().withTimeout(BUDGET).withPolicy(ReadPolicy.FALLBACK_TO_SOURCE),
              this::serverUuidCuttingTheReplicaOff);

      assertThat(read.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(read.value()).isNotEqualTo(replica.serverUuid());
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BUDGET.plus(SLACK));
  }

  @Test
  void withoutAFallbackTheReadIsRefusedAtItsDeadline() {
    ConsistentReader reader = ConsistentReader.builder(replicaPool, sourcePool).build();
    long started = System.nanoTime();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      assertThatThrownBy(
              () ->
                  reader.read(
                      ReadOptions.defaults().withTimeout(BUDGET).withPolicy(ReadPolicy.FAIL),
                      this::serverUuidCuttingTheReplicaOff))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.REPLICA_ERROR));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isBetween(BUDGET.minus(SLACK), BUDGET.plus(SLACK));
  }

  /** The query of a read whose replica is cut off right as it runs. */
  private String serverUuidCuttingTheReplicaOff(Connection connection) throws SQLException {
    if (connection.getMetaData().getURL().contains(":" + link.port() + "/")) {
      link.partition();
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@server_uuid")) {
      rs.next();
      return rs.getString(1);
    }
  }
}

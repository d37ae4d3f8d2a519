package io.tidemark.jdbc;

import static io.tidemark.jdbc.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
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
  private static final Duration HELD = Duration.ofMillis(700);

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
      assertRefused(
          Reason.REPLICA_ERROR,
          () ->
              reader.read(
                  ReadOptions.defaults().withTimeout(BUDGET).withPolicy(ReadPolicy.FAIL),
                  this::serverUuidCuttingTheReplicaOff));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isBetween(BUDGET.minus(SLACK), BUDGET.plus(SLACK));
  }

  /**
   * The read waits most of its budget for the pool's one connection, new to the read path, and the
   * replica stops answering as it is handed over: the statements that first look at a connection
   * (who the server is, read-only) are bounded by what is left of the budget, not by the whole.
   */
  @Test
  void aConnectionHandedOverLateIsBoundedByWhatIsLeft() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(replica.jdbcUrlThrough(LINK, "mysql"));
    config.setUsername(replica.user());
    config.setPassword(replica.password());
    config.setMaximumPoolSize(1);
    config.setPoolName("hung-replica-handover");
    try (HikariDataSource onePool = ReplicaPools.create(config)) {
      // A read elsewhere first: loading the read path's classes is not this read's to time.
      try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
        ConsistentReader.builder(replicaPool, sourcePool).build().read(this::serverUuid);
      }
      ConsistentReader reader = ConsistentReader.builder(onePool, sourcePool).build();
      ReadOptions options = ReadOptions.defaults().withTimeout(BUDGET).withPolicy(ReadPolicy.FAIL);
      Connection held = onePool.getConnection();
      Thread handover =
          new Thread(
              () -> {
                LockSupport.parkNanos(HELD.toNanos());
                link.partition();
                try {
                  held.close();
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      handover.start();
      ConsistentReadException refused = null;
      long started = System.nanoTime();
      try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
        reader.read(options, this::serverUuid);
      } catch (ConsistentReadException e) {
        refused = e;
      }
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      handover.join();
      link.heal();

      assertThat(refused).isNotNull();
      assertThat(refused.reason()).isEqualTo(Reason.REPLICA_ERROR);
      assertThat(took).isLessThan(BUDGET.plus(SLACK));
    }
  }

  /** The query of a read whose replica is cut off right as it runs. */
  private String serverUuidCuttingTheReplicaOff(Connection connection) throws SQLException {
    if (connection.getMetaData().getURL().contains(":" + link.port() + "/")) {
      link.partition();
    }
    return serverUuid(connection);
  }

  private String serverUuid(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@server_uuid")) {
      rs.next();
      return rs.getString(1);
    }
  }
}

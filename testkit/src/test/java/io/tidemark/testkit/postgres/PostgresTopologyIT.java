package io.tidemark.testkit.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.postgres.PostgresNode.Role;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A primary and two hot standbys of Debian's PostgreSQL: streaming, the faults, and a failover
 * last. Each server fact is read from the servers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresTopologyIT {

  private static PostgresTopology topology;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(2).start();
    System.out.printf(
        "tidemark-testkit: backend=local processes, %s, 1 primary + %d standby(s) up in %d ms%n",
        topology.binaries(), topology.standbys().size(), topology.startTime().toMillis());
  }

  @AfterAll
  static void stop() {
    if (topology != null) {
      topology.close();
    }
  }

  @Test
  @Order(1)
  void standbysAreHotStandbysThatReplayThePrimarysWrites() {
    String db = topology.createDatabase("shop");
    PostgresNode primary = topology.primary();
    primary.execute("CREATE TABLE t (id int)");
    primary.execute("INSERT INTO t VALUES (1)");
    String lsn = primary.walLsn();

    assertThat(primary.inRecovery()).isFalse();
    for (PostgresNode standby : topology.standbys()) {
      assertThat(standby.inRecovery()).as(standby.name()).isTrue();
      assertThat(standby.awaitLsn(lsn, Duration.ofSeconds(10))).isTrue();
      assertThat(standby.queryString("SELECT count(*) FROM t")).isEqualTo("1");
      assertThatThrownBy(() -> standby.execute("INSERT INTO t VALUES (2)"))
          .hasMessageContaining("read-only transaction");
    }
    assertThat(db).startsWith("shop_");
  }

  @Test
  @Order(2)
  void pausedReplayHoldsTheStandbyBackUntilResumed() {
    PostgresNode standby = topology.standby();
    standby.pauseReplay();
    try {
      assertHeldBackUntil(standby, "paused", standby::resumeReplay);
    } finally {
      standby.resumeReplay();
    }
  }

  @Test
  @Order(3)
  void aStoppedReceiverGetsNoWalUntilStarted() {
    PostgresNode standby = topology.standby();
    standby.stopReceiver();
    try {
      Poll.until(
          () -> "0".equals(standby.queryString("SELECT count(*) FROM pg_stat_wal_receiver")),
          Duration.ofSeconds(10));
      assertHeldBackUntil(standby, "unreceived", standby::startReceiver);
    } finally {
      standby.startReceiver();
    }
  }

  @Test
  @Order(4)
  void aFrozenStandbyAnswersNothingUntilThawed() {
    PostgresNode standby = topology.standby();
    standby.freeze();
    try {
      assertThatThrownBy(
              () ->
                  DriverManager.getConnection(
                          standby.jdbcUrl() + "&loginTimeout=1", standby.user(), "")
                      .close())
          .isInstanceOf(SQLException.class);
    } finally {
      standby.thaw();
    }
    assertThat(standby.inRecovery()).isTrue();
  }

  @Test
  @Order(5)
  void aKilledStandbyRestartsAndCatchesUp() {
    PostgresNode standby = topology.standby();
    standby.kill();
    assertThat(standby.isRunning()).isFalse();
    topology.primary().execute("CREATE TABLE while_down (id int)");

    standby.restart();

    topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
    assertThat(standby.queryString("SELECT to_regclass('while_down')")).isEqualTo("while_down");
  }

  @Test
  @Order(6)
  void aLinkCarriesQueriesAndItsFaultsButNotStreaming() throws SQLException {
    PostgresNode standby = topology.standby();
    FaultLink link = standby.link("client");
    String url = standby.jdbcUrlThrough("client", "postgres");
    try (Connection connection =
        DriverManager.getConnection(url + "&socketTimeout=1", standby.user(), "")) {
      assertThat(url).doesNotContain(":" + standby.port() + "/");
      assertThat(select1(connection)).isEqualTo(1);

      link.partition();
      assertThatThrownBy(() -> select1(connection)).isInstanceOf(SQLException.class);
      topology.primary().execute("CREATE TABLE while_partitioned (id int)");
      assertThat(standby.awaitLsn(topology.primary().walLsn(), Duration.ofSeconds(10)))
          .as("streaming does not go through the link")
          .isTrue();
    } finally {
      link.heal();
    }
    try (Connection connection = DriverManager.getConnection(url, standby.user(), "")) {
      assertThat(select1(connection)).isEqualTo(1);
    } finally {
      link.close();
    }
  }

  private static int select1(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  @Order(7)
  void promotingAStandbyStartsANewTimelineTheOtherFollows() {
    PostgresNode former = topology.primary();
    PostgresNode promoted = topology.standbys().get(1);
    PostgresNode other = topology.standbys().get(0);
    long timeline = promoted.timeline();

    topology.promote(promoted);

    assertThat(topology.primary()).isSameAs(promoted);
    assertThat(former.role()).isEqualTo(Role.FORMER_PRIMARY);
    assertThat(former.isRunning()).isFalse();
    assertThat(Poll.until(() -> !promoted.inRecovery(), Duration.ofSeconds(30))).isTrue();
    promoted.execute("CHECKPOINT");
    assertThat(promoted.timeline()).isEqualTo(timeline + 1);
    promoted.execute("CREATE TABLE after_failover (id int)");
    String lsn = promoted.walLsn();
    assertThat(other.awaitLsn(lsn, Duration.ofSeconds(30))).isTrue();
    assertThat(other.queryString("SELECT to_regclass('after_failover')"))
        .isEqualTo("after_failover");
  }

  /**
   * With a synchronous standby, a commit waits until one standby flushed it: with every receiver
   * stopped it is held (and shows as the primary's {@code SyncRep} wait), and one receiver back
   * releases it.
   */
  @Test
  void aSynchronousTopologyHoldsACommitUntilAStandbyHasIt() throws Exception {
    try (PostgresTopology synchronous =
        PostgresTopology.builder().standbys(2).synchronousStandbys(1).start()) {
      PostgresNode primary = synchronous.primary();
      assertThat(primary.queryString("SHOW synchronous_standby_names")).isEqualTo("ANY 1 (*)");
      primary.execute("CREATE TABLE held (id int)");
      for (PostgresNode standby : synchronous.standbys()) {
        standby.stopReceiver();
      }
      CompletableFuture<Void> commit =
          CompletableFuture.runAsync(() -> primary.execute("INSERT INTO held VALUES (1)"));
      try {
        assertThat(
                Poll.until(
                    () ->
                        "1"
                            .equals(
                                primary.queryString(
                                    "SELECT count(*) FROM pg_stat_activity"
                                        + " WHERE wait_event = 'SyncRep'")),
                    Duration.ofSeconds(10)))
            .as("the commit waits for a standby")
            .isTrue();
        assertThat(commit).isNotDone();
      } finally {
        synchronous.standbys().get(1).startReceiver();
      }
      commit.get(10, TimeUnit.SECONDS);
      assertThat(primary.queryString("SELECT count(*) FROM held")).isEqualTo("1");
    }
  }

  /**
   * A table created on the primary now does not reach {@code standby} within 500 ms, and does
   * within 10 s once {@code release} ran.
   */
  private static void assertHeldBackUntil(PostgresNode standby, String table, Runnable release) {
    topology.primary().execute("CREATE TABLE " + table + " (id int)");
    String lsn = topology.primary().walLsn();

    assertThat(standby.awaitLsn(lsn, Duration.ofMillis(500))).isFalse();
    release.run();
    assertThat(standby.awaitLsn(lsn, Duration.ofSeconds(10))).isTrue();
  }
}

package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.FaultLink.Direction;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each fault of a {@link FaultLink} against the real servers behind it. Every test has links of its
 * own name and closes them, so the shared servers are never faulted.
 */
@ExtendWith(TestkitExtension.class)
class FaultLinkIT {

  private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

  private final List<FaultLink> links = new ArrayList<>();
  private MySqlTopology topology;
  private MySqlNode replica;
  private String name;

  @BeforeEach
  void name(MySqlTopology topology, TestInfo test) {
    this.topology = topology;
    replica = topology.replica();
    name = test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void closeLinks() {
    links.forEach(FaultLink::close);
  }

  /** The link of this test's name to {@code node}, closed after the test. */
  private FaultLink linkTo(MySqlNode node) {
    FaultLink link = node.link(name);
    links.add(link);
    return link;
  }

  @Test
  void latencyAddsItsDelayToEveryRoundTrip() throws SQLException {
    FaultLink link = linkTo(replica);
    try (Connection connection = open(replica.jdbcUrlThrough(name))) {
      select1(connection);
      link.latency(Direction.BOTH, Duration.ofMillis(100), Duration.ZERO);
      for (int i = 0; i < 3; i++) {
        long started = System.nanoTime();
        select1(connection);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .as("the query up and its answer down, 100 ms each")
            .isGreaterThanOrEqualTo(Duration.ofMillis(200));
      }
    }
  }

  @Test
  void blackHoledQueryTimesOutWithTheSocketTimeout() throws SQLException {
    FaultLink link = linkTo(replica);
    try (Connection connection = open(replica.jdbcUrlThrough(name) + "&socketTimeout=1000")) {
      select1(connection);
      link.blackHole(Direction.BOTH);
      long started = System.nanoTime();
      assertThatThrownBy(() -> select1(connection))
          .isInstanceOf(SQLException.class)
          .hasRootCauseInstanceOf(SocketTimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
    assertThat(replica.queryString("SELECT 1")).as("the server itself answers").isEqualTo("1");
    link.heal();
    assertThat(query(replica.jdbcUrlThrough(name))).isTrue();
  }

  @Test
  void resetFailsTheNextStatementWhileTheServerIsFine() throws SQLException {
    FaultLink link = linkTo(replica);
    try (Connection connection = open(replica.jdbcUrlThrough(name))) {
      select1(connection);
      link.resetConnections();
      assertThat(link.openConnections()).isZero();
      assertThatThrownBy(() -> select1(connection))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> assertThat(e.getSQLState()).as("a communications error").isEqualTo("08S01"));
    }
    assertThat(replica.queryString("SELECT 1")).isEqualTo("1");
    assertThat(query(replica.jdbcUrlThrough(name))).as("new connections go through").isTrue();
  }

  @Test
  void refusedNewConnectionsFailAtOnceWhileOpenOnesGoOn() throws SQLException {
    FaultLink link = linkTo(replica);
    try (Connection connection = open(replica.jdbcUrlThrough(name))) {
      link.refuseNew(true);
      assertThatThrownBy(() -> open(replica.jdbcUrlThrough(name)))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).startsWith("08"));
      select1(connection);

      link.refuseNew(false);
      assertThat(query(replica.jdbcUrlThrough(name))).isTrue();
    }
  }

  @Test
  void partitionHangsOpenAndNewConnectionsUntilHealed() throws Exception {
    FaultLink link = linkTo(replica);
    try (Connection connection = open(replica.jdbcUrlThrough(name) + "&socketTimeout=1000")) {
      link.partition();
      assertThatThrownBy(() -> select1(connection))
          .isInstanceOf(SQLException.class)
          .hasRootCauseInstanceOf(SocketTimeoutException.class);
    }
    String patient =
        replica.jdbcUrlThrough(name).replace("connectTimeout=5000", "connectTimeout=0");
    CompletableFuture<Boolean> attempt =
        CompletableFuture.supplyAsync(() -> queryUnchecked(patient));
    assertThatThrownBy(() -> attempt.get(1, TimeUnit.SECONDS))
        .as("a new connection waits for the network")
        .isInstanceOf(TimeoutException.class);

    link.heal();
    assertThat(attempt.get(10, TimeUnit.SECONDS)).as("and is made once it is back").isTrue();
    assertThat(query(replica.jdbcUrlThrough(name))).isTrue();
  }

  @Test
  void halfOpenLinkCarriesTheQueryButNotItsAnswer() throws SQLException {
    MySqlNode source = topology.source();
    String db = topology.createDatabase("half_open");
    source.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    FaultLink link = linkTo(source);
    // Without local session state the driver asks the server whether the session is read-only
    // before each write, and with that answer lost would never send the insert.
    String url = source.jdbcUrlThrough(name, db) + "&socketTimeout=1000&useLocalSessionState=true";
    try (Connection connection = open(url)) {
      select1(connection);
      link.drop(Direction.DOWNSTREAM);
      assertThatThrownBy(() -> connection.createStatement().execute("INSERT INTO t VALUES (1)"))
          .isInstanceOf(SQLException.class)
          .hasRootCauseInstanceOf(SocketTimeoutException.class);
    }
    assertThat(source.queryString("SELECT COUNT(*) FROM `" + db + "`.t"))
        .as("the insert reached the server")
        .isEqualTo("1");
  }

  @Test
  void probeAndPoolLinksToOneReplicaAreCutApart() throws SQLException {
    MySqlNode source = topology.source();
    try (Connection pooled = open(replica.jdbcUrlThrough("pool") + "&socketTimeout=1000")) {
      // tag::probe-and-pool[]
      String probeUrl = replica.jdbcUrlThrough("probe"); // one link for the health probe
      String poolUrl = replica.jdbcUrlThrough("pool"); // another for the connection pool
      replica.link("pool").partition(); // the probe still gets through, the pool does not
      // end::probe-and-pool[]
      assertThat(poolUrl).doesNotContain(":" + replica.port() + "/");
      assertThat(query(probeUrl)).isTrue();
      assertThatThrownBy(() -> select1(pooled)).isInstanceOf(SQLException.class);

      source.execute("CREATE DATABASE IF NOT EXISTS `" + name + "`");
      assertThat(replica.awaitGtidSet(source.gtidExecuted(), Duration.ofSeconds(10)))
          .as("replication does not go through the links")
          .isTrue();
    } finally {
      replica.link("probe").close();
      replica.link("pool").close();
    }
    assertThat(query(replica.jdbcUrl())).as("jdbcUrl() stays direct").isTrue();
  }

  @Test
  void blackHoledRedisAnswersPingOnlyOnceHealed(RedisServer redis) throws IOException {
    FaultLink link = redis.link(name);
    assertThat(redis.uriThrough(name)).isEqualTo("redis://127.0.0.1:" + link.port());
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), link.port())) {
      socket.setSoTimeout(1000);
      link.blackHole(Direction.BOTH);
      OutputStream out = socket.getOutputStream();
      out.write(PING);
      out.flush();
      InputStream in = socket.getInputStream();
      assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
      assertThat(redis.command("PING")).as("the server itself answers").isEqualTo("PONG");

      link.heal();
      socket.setSoTimeout(5000);
      assertThat(new String(in.readNBytes(7), StandardCharsets.US_ASCII))
          .as("the held PING reaches the server once healed")
          .isEqualTo("+PONG\r\n");
    } finally {
      link.close();
    }
  }

  @Test
  void closingARedisServerClosesItsLinks() throws IOException {
    RedisServer own = RedisServer.start();
    FaultLink link;
    try (own) {
      link = own.link("clients");
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), link.port())) {
        socket.setSoTimeout(5000);
        socket.getOutputStream().write(PING);
        assertThat(new String(socket.getInputStream().readNBytes(7), StandardCharsets.US_ASCII))
            .isEqualTo("+PONG\r\n");
      }
    }
    assertThatThrownBy(link::heal).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> own.link("clients")).isInstanceOf(IllegalStateException.class);
  }

  private static Connection open(String url) throws SQLException {
    return DriverManager.getConnection(url, "root", "");
  }

  private static void select1(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeQuery("SELECT 1").next()).isTrue();
    }
  }

  private static boolean query(String url) throws SQLException {
    try (Connection connection = open(url)) {
      select1(connection);
      return true;
    }
  }

  private static boolean queryUnchecked(String url) {
    try {
      return query(url);
    } catch (SQLException e) {
      throw new CompletionException(e);
    }
  }
}

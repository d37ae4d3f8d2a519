package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.Reason;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A write the source refuses as read-only, as a fenced primary does, is refused as no writable
 * source, its outcome known. A write that waits for a connection of the source's pool when the
 * source dies: the pool alone would keep it waiting for its whole connection timeout (Hikari's
 * default, 30 s, here), creating connections to a dead server; the writer gives up as soon as the
 * view sees the node is no longer the source, with the reason.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WriterFailoverIT {

  private static final Duration REFRESH = Duration.ofMillis(500);

  private static PostgresTopology topology;
  private static final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
  private static TopologyView view;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(1).start();
    for (PostgresNode node : topology.nodes()) {
      pools.put(node.name(), pool(node));
    }
    view =
        TopologyView.builder(
                topology.nodes().stream()
                    .map(n -> new NodeConfig(n.name(), n.jdbcUrl(), n.user(), n.password()))
                    .toList())
            .refreshInterval(REFRESH)
            .build();
    view.start();
  }

  @AfterAll
  static void stop() {
    if (view != null) {
      view.close();
    }
    pools.values().forEach(HikariDataSource::close);
    if (topology != null) {
      topology.close();
    }
  }

  @Test
  @Order(0)
  void aWriteConnectionHasOneLayerOfTidemarkCapturedOrNot() throws Exception {
    DataSource writes =
        CapturingDataSource.wrap(
            new NodeSelector(view, Duration.ofSeconds(1)).writer(Map.copyOf(pools)));
    try (Connection unscoped = writes.getConnection()) {
      assertThat(unscoped.toString()).startsWith("Tidemark[HikariProxyConnection");
    }
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection captured = writes.getConnection()) {
      assertThat(captured.toString()).startsWith("Tidemark[HikariProxyConnection");
      try (Statement s = captured.createStatement()) {
        assertThat(s.toString()).startsWith("Tidemark[HikariProxyStatement");
      }
    }
  }

  @Test
  @Order(1)
  void aWriteTheSourceRefusesAsReadOnlyWroteNothingAndIsRefusedAsNoWritableSource()
      throws Exception {
    DataSource writes =
        CapturingDataSource.wrap(
            new NodeSelector(view, Duration.ofSeconds(1)).writer(Map.copyOf(pools)));
    PostgresNode primary = topology.primary();
    try (Connection c = writes.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE refused (id int PRIMARY KEY)");
      // The application's own read-only transaction refuses too: that is no failover.
      c.setAutoCommit(false);
      c.setReadOnly(true);
      assertThat(catchThrowable(() -> s.execute("INSERT INTO refused VALUES (0)")))
          .isNotInstanceOf(NoWritableSourceException.class)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
      c.rollback();
      c.setReadOnly(false);
      c.setAutoCommit(true);
    }
    // As a primary fenced before a failover: its sessions turn read-only once they reload.
    primary.execute(
        "ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()");
    try {
      Throwable refused = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (int id = 1; refused == null && System.nanoTime() < deadline; id++) {
        try (ConsistencyContext.Binding binding = ConsistencyContext.open();
            Connection c = writes.getConnection();
            Statement s = c.createStatement()) {
          s.execute("INSERT INTO refused VALUES (" + id + ")");
        } catch (SQLException e) {
          refused = e;
        }
      }

      assertThat(refused)
          .as("refused in autocommit, the outcome known: nothing written")
          .isInstanceOf(NoWritableSourceException.class)
          .hasCauseInstanceOf(SQLException.class);
      assertThat(((NoWritableSourceException) refused).reason())
          .isEqualTo(Reason.NO_WRITABLE_SOURCE);
      assertThat(((SQLException) refused.getCause()).getSQLState()).isEqualTo("25006");
      try (Connection c = writes.getConnection();
          Statement s = c.createStatement()) {
        assertThat(catchThrowable(() -> s.execute("INSERT INTO refused VALUES (0)")))
            .as("refused so with no context bound too")
            .isInstanceOf(NoWritableSourceException.class);
      }
    } finally {
      primary.execute(
          "ALTER SYSTEM RESET default_transaction_read_only", "SELECT pg_reload_conf()");
      // The reload reaches the pooled session asynchronously, after a command at the latest.
      Conditions.awaitTrue(WriterFailoverIT::sourceSessionIsWritable);
    }
  }

  private static boolean sourceSessionIsWritable() {
    try (Connection c = pools.get(topology.primary().name()).getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW default_transaction_read_only")) {
      return rs.next() && rs.getString(1).equals("off");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  @Order(2)
  void aWriteWaitingForAConnectionOfADeadSourceIsRefusedOnceTheViewSeesItGone() throws Exception {
    DataSource writer = new NodeSelector(view, Duration.ofSeconds(1)).writer(Map.copyOf(pools));
    Connection busy = writer.getConnection();
    try (Statement s = busy.createStatement()) {
      s.execute("CREATE TABLE t (id int PRIMARY KEY)");
    }
    // The pool's only connection is taken: this write waits for one when the server goes.
    CompletableFuture<Connection> waiting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return writer.getConnection();
              } catch (SQLException e) {
                throw new CompletionException(e);
              }
            });
    HikariDataSource sourcePool = pools.get(topology.primary().name());
    Conditions.awaitTrue(() -> sourcePool.getHikariPoolMXBean().getThreadsAwaitingConnection() > 0);
    assertThat(waiting).isNotDone();
    topology.primary().kill();
    long killed = System.nanoTime();
    Throwable refused = catchThrowable(() -> waiting.get(60, TimeUnit.SECONDS)).getCause();
    long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
    busy.close();

    System.out.printf(
        "figures: a write waiting when its source was killed refused %d ms later (refresh interval %d"
            + " ms, pool connection timeout %d ms)%n",
        waitedMillis,
        REFRESH.toMillis(),
        pools.get(topology.primary().name()).getConnectionTimeout());
    assertThat(refused).isInstanceOf(NoWritableSourceException.class);
    assertThat(((NoWritableSourceException) refused).reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);
    // A probe or two, on 2 busy cores: far from the pool's 30 s.
    assertThat(waitedMillis).isLessThan(REFRESH.multipliedBy(10).toMillis());
  }

  private static HikariDataSource pool(PostgresNode node) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(node.jdbcUrl());
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(1);
    config.setPoolName("writer-" + node.name());
    return new HikariDataSource(config);
  }
}

package io.tidemark.spring.postgres;

import static io.tidemark.spring.OrdersApplication.assertRead;
import static io.tidemark.spring.OrdersApplication.failsLackingPrivileges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.OrdersApplication;
import io.tidemark.spring.OrdersApplication.Beans;
import io.tidemark.spring.OrdersApplication.Orders;
import io.tidemark.spring.OrdersApplication.Paused;
import io.tidemark.spring.Replication;
import io.tidemark.spring.autoconfigure.TidemarkStartupException;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter on PostgreSQL, unchanged: spring.datasource.url names the primary, tidemark.replicas
 * a hot standby, and an {@code @ReadYourWrites} read after a {@code @Transactional} write waits on
 * the standby for the write. A role without the grants Tidemark needs stops the start, saying what
 * to grant.
 */
@ExtendWith(OutputCaptureExtension.class)
class PostgresReadYourWritesIT {

  private static final String ROLE = "shop";

  private static PostgresTopology topology;
  private static String db;
  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() throws SQLException {
    topology = PostgresTopology.builder().standbys(1).start();
    db = topology.createDatabase("shop");
    PostgresNode primary = topology.primary();
    primary.execute(
        "CREATE ROLE " + ROLE + " LOGIN PASSWORD 'shop' IN ROLE pg_monitor",
        "CREATE ROLE bare LOGIN PASSWORD 'bare'",
        "GRANT ALL ON DATABASE " + db + " TO " + ROLE + ", bare");
    try (Connection c = DriverManager.getConnection(primary.jdbcUrl(db), primary.user(), "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id bigserial PRIMARY KEY, customer text NOT NULL)");
      s.execute("GRANT ALL ON orders, orders_id_seq TO " + ROLE);
      s.execute("GRANT EXECUTE ON FUNCTION pg_read_file(text) TO " + ROLE);
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    app = run(ROLE);
  }

  @AfterAll
  static void stop() throws Exception {
    OrdersApplication.close(app, topology);
  }

  @Test
  void aReadAfterAWriteWaitsOnTheStandbyForIt() {
    Beans beans = Beans.of(app);
    try (Paused paused = pauseStandby();
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = beans.orders().create("ada");
      assertThat(binding.context().gtids().isEmpty()).as("the commit was captured").isFalse();
      assertThat(standbyHas(id))
          .as("a read on the standby without the wait would miss it")
          .isFalse();
      int before = beans.history().recent().size();
      CompletableFuture<Void> resume = topology.standby().resumeReplayAfter(Duration.ofMillis(300));

      String customer = beans.orders().customer(id);
      resume.join();

      assertThat(customer).isEqualTo("ada");
      List<ExecutionRecord> records = beans.history().recent();
      ExecutionRecord read = records.get(0);
      assertThat(records).hasSize(before + 1);
      assertRead(read, NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
    }
  }

  /**
   * A hot standby refuses a SERIALIZABLE transaction, which the primary runs: the read falls back
   * to it by the policy, the standby kept for the reads after.
   */
  @Test
  void aSerializableReadTransactionIsServedByThePrimary() {
    Beans beans = Beans.of(app);
    Orders orders = beans.orders();
    long id;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      id = orders.create("grace");
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));

    assertThat(orders.customerSerializable(id)).isEqualTo("grace");
    assertRead(beans.lastRead(), NodeRole.SOURCE, Reason.SOURCE_FALLBACK);

    assertThat(orders.customer(id)).isEqualTo("grace");
    ExecutionRecord next = beans.lastRead();
    assertThat(next.role()).as("the standby still serves: " + next).isEqualTo(NodeRole.REPLICA);
  }

  /**
   * The automatic mode: an unannotated read-only transaction waits on the standby, and a hinted
   * statement in one runs on the primary, which is sent it without the hint.
   */
  @Test
  void inTheAutomaticModeAReadOnlyTransactionWaitsOnTheStandbyAndAHintedOneRunsOnThePrimary() {
    try (ConfigurableApplicationContext automatic = run(ROLE, "tidemark.read.automatic=true")) {
      Beans beans = Beans.of(automatic);
      Orders orders = beans.orders();
      try (Paused paused = pauseStandby();
          ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long id = orders.create("barbara");
        assertThat(standbyHas(id)).as("the standby without the wait misses it").isFalse();
        CompletableFuture<Void> resume =
            topology.standby().resumeReplayAfter(Duration.ofMillis(300));

        String customer = orders.customerReadOnly(id, "");
        resume.join();
        ExecutionRecord read = beans.lastRead();
        String hinted = orders.customerReadOnly(id, "/* tidemark:source */ ");
        ExecutionRecord hint = beans.lastRead();

        assertThat(customer).isEqualTo("barbara");
        assertRead(read, NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
        assertThat(hinted).isEqualTo("barbara");
        assertRead(hint, NodeRole.SOURCE, Reason.SOURCE_FOR_WRITE);
        assertThat(orders.text("/* tidemark:source */ SELECT current_query()"))
            .as("the text the primary was sent")
            .isEqualTo(" SELECT current_query()");
      }
    }
  }

  @Test
  void aRoleWithoutTheGrantsStopsTheStartWithTheStatementsThatGrantIt(CapturedOutput output) {
    failsLackingPrivileges(
        () -> run("bare").close(),
        output,
        "cannot read timeline histories in database " + db,
        "\n  GRANT pg_monitor TO bare;\n",
        "\n  GRANT EXECUTE ON FUNCTION pg_read_file(text) TO bare;");
  }

  @Test
  void aRoleGrantedWhatTheStartAskedForStarts(CapturedOutput output) throws SQLException {
    topology.primary().execute("CREATE ROLE granted LOGIN PASSWORD 'granted'");
    topology.primary().execute("GRANT ALL ON DATABASE " + db + " TO granted");
    assertThatThrownBy(() -> run("granted").close())
        .hasRootCauseInstanceOf(TidemarkStartupException.class);
    StringBuilder grants = new StringBuilder();
    for (String line : output.toString().split("\n")) {
      if (line.strip().startsWith("GRANT ")) {
        grants.append(line.strip()).append('\n');
      }
    }
    assertThat(grants).as("GRANT statements").isNotEmpty();

    PostgresNode primary = topology.primary();
    try (Connection c = DriverManager.getConnection(primary.jdbcUrl(db), primary.user(), "");
        Statement s = c.createStatement()) {
      s.execute(grants.toString());
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));

    run("granted").close();
  }

  private static ConfigurableApplicationContext run(String user, String... settings) {
    return OrdersApplication.run(
        topology.primary().jdbcUrl(db), topology.standby().jdbcUrl(db), user, settings);
  }

  private static Paused pauseStandby() {
    PostgresNode standby = topology.standby();
    standby.pauseReplay();
    return standby::resumeReplay;
  }

  private static boolean standbyHas(long id) {
    return Replication.postgres(topology, db).replicaHasOrder(id);
  }
}

package io.tidemark.spring.mariadb;

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
import io.tidemark.spring.OrdersApplication.Paused;
import io.tidemark.spring.autoconfigure.TidemarkStartupException;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter on MariaDB, unchanged: spring.datasource.url names the source ({@code jdbc:mariadb:},
 * MariaDB Connector/J), tidemark.replicas a replica, and an {@code @ReadYourWrites} read after a
 * {@code @Transactional} write waits on the replica for the write, never answering stale while the
 * replica lags. A user without the grant Tidemark needs, or a replica without {@code
 * gtid_strict_mode}, stops the start, saying what to do.
 */
@ExtendWith(OutputCaptureExtension.class)
class MariaDbReadYourWritesIT {

  private static final String USER = "shop";

  private static MariaDbTopology topology;
  private static String db;
  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(1).start();
    db = topology.createDatabase("shop");
    topology
        .source()
        .execute(
            "CREATE TABLE `"
                + db
                + "`.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(40) NOT NULL)",
            "CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + USER + "'",
            "GRANT ALL ON `" + db + "`.* TO '" + USER + "'@'127.0.0.1'",
            "GRANT SLAVE MONITOR ON *.* TO '" + USER + "'@'127.0.0.1'",
            "CREATE USER 'bare'@'127.0.0.1' IDENTIFIED BY 'bare'",
            "GRANT ALL ON `" + db + "`.* TO 'bare'@'127.0.0.1'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    app = run(USER);
  }

  @AfterAll
  static void stop() throws Exception {
    OrdersApplication.close(app, topology);
  }

  /** The replica applies each transaction a second after its commit: it lags, and replicates. */
  @Test
  void aReadAfterAWriteWaitsOnTheLaggingReplicaForIt() {
    Beans beans = Beans.of(app);
    MariaDbNode replica = topology.replica();
    replica.delayApplier(Duration.ofSeconds(1));
    // Restarted, the replica reconnects to its source; until the view sees it replicate again
    // (refreshed every 200 ms), it is not read.
    awaitReplicating(replica);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = beans.orders().create("ada");
      assertThat(binding.context().gtids().isEmpty()).as("the commit was captured").isFalse();
      assertThat(replicaHas(id))
          .as("a read on the replica without the wait would miss it")
          .isFalse();

      String customer = beans.orders().customer(id);

      assertThat(customer).isEqualTo("ada");
      ExecutionRecord read = beans.lastRead();
      assertRead(read, NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
      assertThat(read.waited()).as(read.toString()).isGreaterThan(Duration.ofMillis(300));
    } finally {
      replica.delayApplier(Duration.ZERO);
    }
  }

  /**
   * The replica's applier stops for 150 ms and runs for 50 ms, over and over, while clients write
   * and read right after: every read finds its write, most of them on the replica.
   */
  @Test
  void noReadAfterAWriteIsStaleWhileTheReplicaLags() {
    Beans beans = Beans.of(app);
    MariaDbNode replica = topology.replica();
    AtomicBoolean lagging = new AtomicBoolean(true);
    CompletableFuture<Void> sawtooth =
        CompletableFuture.runAsync(
            () -> {
              while (lagging.get()) {
                replica.pauseApplier();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(150));
                replica.resumeApplier();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
              }
            });
    List<String> stale = new ArrayList<>();
    List<ExecutionRecord> reads = new ArrayList<>();
    try {
      for (int i = 0; i < 40; i++) {
        try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
          String customer = "lag-" + i;
          long id = beans.orders().create(customer);
          String read = beans.orders().customerOrNull(id);
          reads.add(beans.lastRead());
          if (!customer.equals(read)) {
            stale.add(customer + " read as " + read);
          }
        }
      }
    } finally {
      lagging.set(false);
      sawtooth.join();
      replica.resumeApplier();
    }

    assertThat(stale).isEmpty();
    assertThat(reads).filteredOn(r -> r.reason() == Reason.REPLICA_AFTER_WAIT).isNotEmpty();
    assertThat(reads).filteredOn(r -> r.role() == NodeRole.REPLICA).hasSizeGreaterThan(20);
  }

  /**
   * A wait that runs out is the read path's business, not a driver error: nothing is logged for it
   * (MariaDB Connector/J logs a WARN for every statement the server's timer ends).
   */
  @Test
  void aWaitThatRunsOutLogsNothing(CapturedOutput output) {
    Beans beans = Beans.of(app);
    try (Paused paused = pauseReplica();
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = beans.orders().create("grace");
      int logged = output.length();

      assertThat(beans.orders().customer(id)).isEqualTo("grace");

      ExecutionRecord read = beans.lastRead();
      assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(read.waited()).as(read.toString()).isPositive();
      assertThat(output.toString().substring(logged)).doesNotContain("WARN");
    }
  }

  @Test
  void inTheAutomaticModeAReadOnlyTransactionWaitsOnTheReplica() {
    try (ConfigurableApplicationContext automatic = run(USER, "tidemark.read.automatic=true")) {
      Beans beans = Beans.of(automatic);
      try (Paused paused = pauseReplica();
          ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long id = beans.orders().create("barbara");
        CompletableFuture<Void> resume =
            CompletableFuture.runAsync(
                paused::close, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));

        String customer = beans.orders().customerReadOnly(id, "");
        resume.join();

        assertThat(customer).isEqualTo("barbara");
        assertRead(beans.lastRead(), NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
      }
    }
  }

  @Test
  void aUserWithoutSlaveMonitorStopsTheStartWithTheStatementThatGrantsIt(CapturedOutput output) {
    failsLackingPrivileges(
        () -> run("bare").close(), output, "\n  GRANT SLAVE MONITOR ON *.* TO 'bare'@'127.0.0.1';");
  }

  @Test
  void aReplicaWithoutGtidStrictModeStopsTheStartNamingIt(CapturedOutput output) {
    topology.replica().execute("SET GLOBAL gtid_strict_mode = OFF");
    try {
      assertThatThrownBy(() -> run(USER).close())
          .hasRootCauseInstanceOf(TidemarkStartupException.class);
      assertThat(output).contains("gtid_strict_mode");
    } finally {
      topology.replica().execute("SET GLOBAL gtid_strict_mode = ON");
    }
  }

  private static ConfigurableApplicationContext run(String user, String... settings) {
    return OrdersApplication.run(url(topology.source()), url(topology.replica()), user, settings);
  }

  private static Paused pauseReplica() {
    MariaDbNode replica = topology.replica();
    replica.pauseApplier();
    return replica::resumeApplier;
  }

  private static void awaitReplicating(MariaDbNode replica) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!replica.replicating()) {
      assertThat(System.nanoTime() - end).as("replicating again within 10 s").isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
  }

  private static String url(MariaDbNode node) {
    return "jdbc:mariadb://" + node.host() + ":" + node.port() + "/" + db;
  }

  private static boolean replicaHas(long id) {
    return !"0"
        .equals(
            topology
                .replica()
                .queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id));
  }
}

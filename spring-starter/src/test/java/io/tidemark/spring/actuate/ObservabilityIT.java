package io.tidemark.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.ConsistencyContext;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.spring.JsonAnswer;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A whole Boot application on the testkit's source and replica: the tidemark health contributor and
 * endpoint over HTTP, and the meters, as reads are made and the replica is stopped or frozen. Every
 * fault is undone before the test ends.
 */
@ExtendWith(TestkitExtension.class)
class ObservabilityIT {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final AtomicInteger ids = new AtomicInteger();

  private static MySqlTopology topology;
  private static ConfigurableApplicationContext app;
  private static String base;

  /** Reads through an annotated method, as applications do. */
  static class Rows {
    private final JdbcTemplate jdbc;

    Rows(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @ReadYourWrites
    public int count() {
      Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM t", Integer.class);
      return count == null ? 0 : count;
    }
  }

  @BeforeAll
  static void start(MySqlTopology shared) throws Exception {
    topology = shared;
    String db = topology.createDatabase("obs");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(PATIENCE);
    app =
        ActuatedApplication.start(
            topology,
            db,
            Rows.class,
            "tidemark.token.secret=observability-it-secret-0123456789abcdef",
            "tidemark.topology.refresh-interval=200ms",
            // Room for the query after a wait, so that a busy test machine does not time it
            // out.
            "tidemark.read.timeout=3s",
            "tidemark.read.query-reserve=500ms",
            "tidemark.topology.probe-connect-timeout=300ms",
            "tidemark.topology.probe-read-timeout=500ms",
            "management.endpoints.web.exposure.include=health,tidemark",
            "management.endpoint.health.show-details=always");
    base = ActuatedApplication.actuator(app, "");
    warmUp();
    awaitReplicaReadable();
  }

  /**
   * Waits until the replica is readable and nothing is wrong: health is UP without it too, since
   * reads then fall back to the source.
   */
  private static void awaitReplicaReadable() throws Exception {
    awaitHealth(
        h ->
            Boolean.TRUE.equals(h.at("$.details.nodes['replica-1'].readable"))
                && h.at("$.details.problems") == null);
  }

  /** Fills the replica pool with a first read, so that no test pays for opening connections. */
  private static void warmUp() {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      try {
        writeThenRead(ReadOptions.defaults().withTimeout(Duration.ofSeconds(5)));
        return;
      } catch (SQLException | RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("no read succeeded within " + PATIENCE, e);
        }
      }
    }
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void healthShowsSourceAndReplicaWithRolesAndLag() throws Exception {
    JsonAnswer health = awaitHealth(h -> "UP".equals(h.at("$.status")));

    assertThat(health.at("$.details.nodes.source.role")).isEqualTo("source");
    assertThat(health.at("$.details.nodes.source.serverUuid"))
        .isEqualTo(topology.source().serverUuid());
    assertThat(health.at("$.details.nodes['replica-1'].role")).isEqualTo("replica");
    assertThat(health.at("$.details.nodes['replica-1'].readable")).isEqualTo(true);
    assertThat(health.at("$.details.nodes['replica-1'].lagMillis")).isInstanceOf(Number.class);
  }

  @Test
  void readsShowInTheEndpointAndCapturesInTheMeters() throws Exception {
    MeterRegistry meters = app.getBean(MeterRegistry.class);
    double capturedBefore = captured(meters);

    int rows = writeThenRead(ReadOptions.defaults());

    assertThat(rows).isPositive();
    assertThat(captured(meters)).isGreaterThan(capturedBefore);
    JsonAnswer tidemark = get("tidemark");
    assertThat(tidemark.at("$.recent[0].node")).isEqualTo("replica-1");
    assertThat(tidemark.at("$.recent[0].serverUuid")).isEqualTo(topology.replica().serverUuid());
    assertThat(tidemark.string("$.recent[0].reason")).startsWith("REPLICA_");
    assertThat(tidemark.string("$.nodes[1].gtidExecuted")).contains(topology.source().serverUuid());
  }

  @Test
  void anAnnotatedReadIsObservedWithMethodAndOutcome() {
    JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
    int rows;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      jdbc.update("INSERT INTO t VALUES (?)", ids.incrementAndGet());
      rows = app.getBean(Rows.class).count();
    }

    assertThat(rows).isPositive();
    var observed =
        app.getBean(MeterRegistry.class)
            .get(DefaultReadObservationConvention.NAME)
            .tag("method", "Rows.count")
            .timer();
    assertThat(observed.count()).isPositive();
    assertThat(observed.getId().getTag("outcome")).startsWith("REPLICA_");
  }

  @Test
  void theWaitIsAChildObservationAndTheReadNamesItsNode() {
    JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
    MeterRegistry meters = app.getBean(MeterRegistry.class);
    topology.replica().pauseApplier();
    CompletableFuture<Void> resume;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      jdbc.update("INSERT INTO t VALUES (?)", ids.incrementAndGet());
      resume = topology.replica().resumeApplierAfter(Duration.ofMillis(200));
      assertThat(app.getBean(Rows.class).count()).isPositive();
    } finally {
      topology.replica().resumeApplier();
    }
    resume.join();

    assertThat(
            meters
                .get(DefaultWaitObservationConvention.NAME)
                .tag("node", "replica-1")
                .tag("coalesced", "false")
                .tag("outcome", "REACHED")
                .timer()
                .count())
        .isPositive();
    assertThat(
            meters
                .get(DefaultReadObservationConvention.NAME)
                .tag("method", "Rows.count")
                .tag("outcome", "REPLICA_AFTER_WAIT")
                .tag("node", "replica-1")
                .tag("role", "REPLICA")
                .timer()
                .count())
        .isPositive();
  }

  @Test
  void aReadThatOutwaitsAPausedApplierCountsAsAFallback() throws Exception {
    MeterRegistry meters = app.getBean(MeterRegistry.class);
    double before = fallbacks(meters);
    topology.replica().pauseApplier();
    try {
      writeThenRead(ReadOptions.defaults().withTimeout(Duration.ofSeconds(1)));
    } finally {
      topology.replica().resumeApplier();
    }

    assertThat(fallbacks(meters)).isEqualTo(before + 1);
    JsonAnswer tidemark = get("tidemark");
    assertThat(tidemark.at("$.recent[0].node")).isEqualTo("source");
    assertThat(tidemark.at("$.recent[0].reason")).isEqualTo("SOURCE_FALLBACK");
  }

  @Test
  void aStoppedReceiverIsAProblemWhileTheReplicaStillServes() throws Exception {
    topology.replica().stopReceiver();
    try {
      JsonAnswer health = awaitHealth(h -> h.string("$.details.problems").contains("replicating"));
      assertThat(health.at("$.status")).isEqualTo("UP");
      assertThat(health.string("$.details.problems")).contains("replica-1 is not replicating");
      assertThat(health.at("$.details.nodes['replica-1'].replicating")).isEqualTo(false);
    } finally {
      topology.replica().startReceiver();
    }
    awaitReplicaReadable();
  }

  @Test
  void aFrozenReplicaIsAProblemWhileReadsFallBackToTheSource() throws Exception {
    topology.replica().freeze();
    try {
      JsonAnswer health = awaitHealth(h -> h.string("$.details.problems").contains("unreachable"));
      assertThat(health.at("$.status")).isEqualTo("UP");
      assertThat(health.string("$.details.problems"))
          .contains("no readable replica: reads under @ReadYourWrites fall back to the source")
          .contains("replica-1 is unreachable");
      assertThat(health.at("$.details.nodes['replica-1'].availability")).isEqualTo("UNREACHABLE");
      assertThat(get("health").at("$.status")).isEqualTo("UP");
    } finally {
      topology.replica().thaw();
    }
    awaitReplicaReadable();
  }

  /** Inserts a row through the application's DataSource, then counts the rows with the reader. */
  private static int writeThenRead(ReadOptions options) throws SQLException {
    DataSource dataSource = app.getBean(DataSource.class);
    ConsistentReader reader = app.getBean(ConsistentReader.class);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO t VALUES (" + ids.incrementAndGet() + ")");
      }
      return reader
          .read(
              options,
              c -> {
                try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                  rs.next();
                  return rs.getInt(1);
                }
              })
          .value();
    }
  }

  private static double captured(MeterRegistry meters) {
    return meters.find(NodeStateMetrics.CAPTURES).functionCounters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private static double fallbacks(MeterRegistry meters) {
    var counter = meters.find(ReadMetrics.FALLBACKS).tag("reason", "SOURCE_FALLBACK").counter();
    return counter == null ? 0 : counter.count();
  }

  private static JsonAnswer awaitHealth(Predicate<JsonAnswer> condition) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    JsonAnswer health = get("health/tidemark");
    while (!condition.test(health)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("health did not change within " + PATIENCE + ": " + health);
      }
      Thread.sleep(100);
      health = get("health/tidemark");
    }
    return health;
  }

  private static JsonAnswer get(String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    return new JsonAnswer(response.body());
  }
}

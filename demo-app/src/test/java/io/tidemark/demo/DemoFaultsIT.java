package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.demo.DemoFaults.Fault;
import io.tidemark.demo.LiveFeed.Kind;
import io.tidemark.testkit.mysql.MySqlNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * Every fault the page offers, applied through the page's API to servers of its own while the
 * background load runs (and the demo's lag is injected): each does what it says to the reads, is
 * undone, and no read with Tidemark ever answers stale. The failover, one way, comes last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoFaultsIT {

  private static final Duration HOLD = Duration.ofSeconds(3);

  private static DemoServers servers;
  private static RestClient page;

  @BeforeAll
  static void start() {
    // Killed servers make the instances log much; the log goes to a file, kept for reading.
    servers =
        DemoServers.start(
            Map.of(
                "logging.file.name", "target/demo-faults.log", "logging.threshold.console", "OFF"));
    servers.demo().faults().injectLag(DemoMain.HELD, DemoMain.RELEASED);
    page = RestClient.create(servers.demo().firstUrl());
    page.post().uri("/api/load/start?clients=4").retrieve().toBodilessEntity();
  }

  @AfterAll
  static void stop() {
    if (servers != null) {
      servers.close();
    }
  }

  @Test
  @Order(1)
  void badRequestsAreTypedErrors() {
    assertThatThrownBy(() -> apply("no-such-fault", 3))
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> {
              assertThat(e.getStatusCode().value()).isEqualTo(400);
              assertThat(e.getResponseBodyAsString()).contains("no fault called no-such-fault");
            });
    assertThatThrownBy(() -> apply("hold-applier", 0))
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> assertThat(e.getResponseBodyAsString()).contains("1 to 30 seconds"));
    assertThatThrownBy(
            () -> page.post().uri("/api/load/start?clients=0").retrieve().toBodilessEntity())
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> assertThat(e.getStatusCode().value()).isEqualTo(400));
  }

  @Test
  @Order(2)
  void holdingTheApplierShowsAsLagAndTurnsWaitsIntoFallbacks() {
    long before = fallbacksAndRefusals(live());
    apply("hold-applier", HOLD.toSeconds());
    assertThatThrownBy(() -> apply("freeze-replica", 3))
        .as("a second fault while one holds")
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> assertThat(e.getStatusCode().value()).isEqualTo(409));

    LiveController.Live after = awaitUndone(Fault.HOLD_APPLIER);

    assertThat(maxLag(after, "replica-1")).as("lag the probes read").isGreaterThanOrEqualTo(1_000);
    assertThat(fallbacksAndRefusals(after)).isGreaterThan(before);
    assertNothingStale(after);
  }

  @Test
  @Order(3)
  void aFrozenReplicaSendsReadsToTheSource() {
    long before = fallbacksAndRefusals(live());
    apply("freeze-replica", HOLD.toSeconds());

    LiveController.Live after = awaitUndone(Fault.FREEZE_REPLICA);

    assertThat(fallbacksAndRefusals(after)).isGreaterThan(before);
    assertNothingStale(after);
  }

  @Test
  @Order(4)
  void aRestartedReplicaServesReadsAgain() {
    apply("restart-replica", HOLD.toSeconds());
    long servedByReplica = awaitUndone(Fault.RESTART_REPLICA).feed().totals().onReads();

    LiveController.Live later =
        await(l -> replicaReads(l) > 0 && l.feed().totals().onReads() > servedByReplica + 10);

    assertNothingStale(later);
  }

  @Test
  @Order(5)
  void aReplicaRestartedWritableLeavesWritesOnTheSource() {
    MySqlNode replica = servers.topology().replica();
    // As a replica restarted without a persisted read_only: writable, still replicating.
    replica.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");
    try {
      // Two probes of the view, so that it has seen the replica writable.
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
      for (int i = 0; i < 20; i++) {
        ResponseEntity<String> created =
            page.post()
                .uri("/api/orders?customer={c}", "writable-replica-" + i)
                .retrieve()
                .onStatus(status -> true, (request, response) -> {})
                .toEntity(String.class);
        assertThat(created.getStatusCode().value()).as(created.getBody()).isEqualTo(201);
      }
    } finally {
      replica.execute("SET GLOBAL read_only = ON", "SET GLOBAL super_read_only = ON");
    }
    assertThat(replica.gtidExecuted())
        .as("nothing written on the replica")
        .doesNotContain(replica.serverUuid());
  }

  @Test
  @Order(6)
  void withRedisKilledWritesAndReadsGoOn() {
    apply("kill-redis", HOLD.toSeconds());
    long reads = live().feed().totals().onReads();

    LiveController.Live after = awaitUndone(Fault.KILL_REDIS);

    assertThat(after.feed().totals().onReads()).isGreaterThan(reads);
    assertNothingStale(after);
  }

  @Test
  @Order(7)
  void afterTheFailoverReadsAreAnsweredFromTheNewSourceAndReplicaFaultsAreOff() {
    MySqlNode replica = servers.topology().replica();
    apply("fail-over", 1);

    LiveController.Live after = awaitUndone(Fault.FAIL_OVER);
    long reads = after.feed().totals().onReads();
    LiveController.Live later = await(l -> l.feed().totals().onReads() > reads + 20);

    assertThat(last(later).outcome()).contains("the replica is the source now");
    assertThat(later.faults())
        .allSatisfy(
            offer ->
                assertThat(offer.available())
                    .as(offer.fault().name())
                    .isEqualTo(offer.fault() == Fault.KILL_REDIS));
    assertThat(servers.topology().source()).isSameAs(replica);
    assertNothingStale(later);
    assertThatThrownBy(() -> apply("hold-applier", 3))
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> assertThat(e.getResponseBodyAsString()).contains("no replica any more"));
  }

  private static void apply(String fault, long seconds) {
    page.post()
        .uri("/api/faults/{fault}?seconds={seconds}", fault, seconds)
        .retrieve()
        .toBodilessEntity();
  }

  private static LiveController.Live live() {
    return page.get().uri("/api/live").retrieve().body(LiveController.Live.class);
  }

  private static LiveController.Live awaitUndone(Fault fault) {
    LiveController.Live undone =
        await(l -> !l.applied().isEmpty() && last(l).endedMillis() != null);
    assertThat(last(undone).fault()).isEqualTo(fault);
    assertThat(last(undone).outcome()).doesNotStartWith("failed");
    return undone;
  }

  private static DemoFaults.Applied last(LiveController.Live live) {
    return live.applied().get(live.applied().size() - 1);
  }

  private static LiveController.Live await(Predicate<LiveController.Live> condition) {
    return Awaitility.await("the page's view")
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(250))
        .until(DemoFaultsIT::live, condition);
  }

  private static long fallbacksAndRefusals(LiveController.Live live) {
    return sum(live, Kind.SOURCE_FALLBACK) + sum(live, Kind.REFUSED);
  }

  private static long replicaReads(LiveController.Live live) {
    int[] after = live.feed().reads().get(Kind.REPLICA_AFTER_WAIT);
    int[] caughtUp = live.feed().reads().get(Kind.REPLICA_CAUGHT_UP);
    // The last two seconds: reads the replica served since it came back.
    int n = after.length;
    return after[n - 1] + after[n - 2] + caughtUp[n - 1] + caughtUp[n - 2];
  }

  private static long sum(LiveController.Live live, Kind kind) {
    ToLongFunction<int[]> total = counts -> java.util.Arrays.stream(counts).asLongStream().sum();
    return total.applyAsLong(live.feed().reads().get(kind));
  }

  private static double maxLag(LiveController.Live live, String node) {
    Double[] lag = live.feed().lagMs().get(node);
    double max = 0;
    for (Double sample : lag) {
      max = sample == null ? max : Math.max(max, sample);
    }
    return max;
  }

  private static void assertNothingStale(LiveController.Live live) {
    assertThat(live.feed().totals().onStale()).as("stale answers with Tidemark").isZero();
    assertThat(sum(live, Kind.STALE)).isZero();
    assertThat(live.feed().totals().offReads()).as("reads without Tidemark go on").isPositive();
  }
}

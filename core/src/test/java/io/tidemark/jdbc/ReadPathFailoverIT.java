package io.tidemark.jdbc;

import static io.tidemark.ShopRows.insert;
import static io.tidemark.ShopRows.value;
import static io.tidemark.jdbc.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.ShopRows;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.mysql.MySqlTopology.FormerSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Faults that end a server's life, each on a topology of its own. */
class ReadPathFailoverIT {

  @Test
  void replicaKilledMidWaitFallsBackToTheSourceWithinTheBudget() throws Exception {
    try (MySqlTopology topology = startWithShop();
        HikariDataSource sourcePool = Pools.tracking(topology.source(), "", 2);
        HikariDataSource replicaPool = Pools.plain(topology.replica(), "", 2)) {
      MySqlNode replica = topology.replica();
      CapturingDataSource source = CapturingDataSource.wrap(sourcePool);
      ConsistentReader reader = ConsistentReader.builder(replicaPool, source).build();
      replica.pauseApplier();
      ExecutorService executor = Executors.newSingleThreadExecutor();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        insert(source, 1, "written");
        ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(4));
        Future<ReadResult<String>> read =
            executor.submit(binding.context().wrap(() -> reader.read(options, c -> value(c, 1))));
        RunningWaits.awaitOne(replica);

        replica.kill();

        ReadResult<String> result = read.get(10, TimeUnit.SECONDS);
        assertThat(result.value()).isEqualTo("written");
        assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
        assertThat(result.record().elapsed()).isLessThan(options.timeout());
      } finally {
        executor.shutdownNow();
      }
    }
  }

  /**
   * Whether the pool's connections are taken on a helper thread (any pool) or on the reader's own
   * with a validation bounded by the read ({@link ReplicaPools}): after an idle pause the pool
   * validates the connection it hands out, which a frozen server never answers.
   */
  @ParameterizedTest(name = "{0} pool")
  @ValueSource(strings = {"plain", "replica"})
  void frozenReplicaDoesNotHoldTheReadPastItsDeadlineFallbackIncluded(String pool)
      throws Exception {
    try (MySqlTopology topology = startWithShop();
        HikariDataSource sourcePool = Pools.tracking(topology.source(), "", 2);
        HikariDataSource replicaPool =
            pool.equals("plain")
                ? Pools.plain(topology.replica(), "", 1)
                : Pools.replica(topology.replica(), "", 1)) {
      MySqlNode replica = topology.replica();
      CapturingDataSource source = CapturingDataSource.wrap(sourcePool);
      ConsistentReader reader = ConsistentReader.builder(replicaPool, source).build();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        insert(source, 1, "before");
        assertThat(reader.read(c -> value(c, 1)).value()).isEqualTo("before");
        replica.freeze();
        try {
          insert(source, 2, "while frozen");
          // Longer than the pool's bypass of validation for a connection used just now (500 ms).
          Thread.sleep(700);
          ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(1));
          long started = System.nanoTime();

          ReadResult<String> read = reader.read(options, c -> value(c, 2));

          assertThat(read.value()).isEqualTo("while frozen");
          assertThat(read.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
          assertThat(Duration.ofNanos(System.nanoTime() - started))
              .isLessThan(options.timeout().plus(Duration.ofMillis(50)));
        } finally {
          replica.thaw();
        }
      }
    }
  }

  @Test
  void writesLostInAFailoverAreReportedNotReadAsMissing() throws Exception {
    try (MySqlTopology topology = startWithShop()) {
      MySqlNode promoted = topology.replica();
      promoted.stopReceiver();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        writeAcknowledged(topology.source());

        topology.promote(promoted, FormerSource.KILLED);

        try (HikariDataSource newSource = Pools.plain(promoted, "shop", 2)) {
          ConsistentReader reader = readerOn(newSource);
          assertTokenNotOnTheSource(
              reader,
              e -> {
                assertThat(e.required()).isEqualTo(binding.context().gtids());
                assertThat(e.lost())
                    .as("what the promoted source lacks")
                    .isEqualTo(
                        binding.context().gtids().subtract(GtidSet.parse(promoted.gtidExecuted())))
                    .isNotEqualTo(GtidSet.EMPTY);
                assertThat(e.waited()).as("the replica was waited for").isPositive();
              });
          assertTokenNotOnTheSource(
              reader,
              e ->
                  assertThat(e.waited())
                      .as("known lost: the source is asked without a replica wait")
                      .isZero());
        }
      }
    }
  }

  /**
   * A replica made writable while its applier still has the former source's writes in its relay
   * log, as a promotion by hand or by a tool that does not wait for the applier: they are not lost,
   * only not applied yet, so the read is refused for now and nothing is named lost.
   */
  @Test
  void writesAPromotedReplicaReceivedButHasNotAppliedAreNotReportedLost() throws Exception {
    try (MySqlTopology topology = startWithShop()) {
      MySqlNode oldSource = topology.source();
      MySqlNode promoted = topology.replica();
      promoted.pauseApplier();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        writeAcknowledged(oldSource);
        GtidSet token = binding.context().gtids();
        assertThat(received(promoted, token)).as("the replica received the write").isTrue();

        oldSource.kill();
        promoted.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");

        try (HikariDataSource newSource = Pools.plain(promoted, "shop", 2)) {
          ConsistentReader reader = readerOn(newSource);
          assertTokenNotOnTheSource(
              reader, e -> assertThat(e.lost()).as("nothing is lost").isEqualTo(GtidSet.EMPTY));
          assertThat(reader.lostWrites()).isEqualTo(GtidSet.EMPTY);

          promoted.resumeApplier();
          assertThat(
                  reader
                      .read(reader.defaults().withTimeout(Duration.ofSeconds(10)), c -> value(c, 1))
                      .value())
              .isEqualTo("acknowledged");
        }
      }
    }
  }

  /** A topology of its own, whose replica has caught up with the creation of {@code shop.t}. */
  private static MySqlTopology startWithShop() {
    MySqlTopology topology = MySqlTopology.builder().start();
    try {
      ShopRows.create(topology.source());
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      return topology;
    } catch (RuntimeException e) {
      topology.close();
      throw e;
    }
  }

  /** Writes row 1 on {@code source}, captured into the bound context as an acknowledged write. */
  private static void writeAcknowledged(MySqlNode source) throws SQLException {
    try (HikariDataSource pool = Pools.tracking(source, "shop", 1)) {
      insert(CapturingDataSource.wrap(pool), 1, "acknowledged");
    }
  }

  /** Whether {@code replica} received {@code gtids}, waiting up to 10 s. */
  private static boolean received(MySqlNode replica, GtidSet gtids) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!GtidSet.parse(
            replica.queryString(
                "SELECT received_transaction_set FROM"
                    + " performance_schema.replication_connection_status"))
        .containsAll(gtids)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    return true;
  }

  /** A reader on the promoted node alone, as its source too, whose reads give up after 300 ms. */
  private static ConsistentReader readerOn(HikariDataSource promoted) {
    return ConsistentReader.builder(promoted, promoted)
        .defaults(ReadOptions.defaults().withTimeout(Duration.ofMillis(300)))
        .build();
  }

  /**
   * A read of row 1 is refused since the token's writes are not on the source; why, by {@code why}.
   */
  private static void assertTokenNotOnTheSource(
      ConsistentReader reader, Consumer<ConsistentReadException> why) {
    assertRefused(Reason.TOKEN_NOT_ON_SOURCE, () -> reader.read(c -> value(c, 1)), why);
  }
}

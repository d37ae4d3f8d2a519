package io.tidemark.jdbc;

import static io.tidemark.jdbc.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.dialect.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read path's contract, the same on every database: the capture after a commit contains it, a
 * replica has it only once applied, the wait ends when the replica reaches it or when the budget
 * does, and the reader serves, falls back or fails by its policy, never stale. Each database runs
 * it on its own topology, in a table {@code orders (id, status, revision)} its application user may
 * write on the source.
 */
abstract class ReadPathContract {

  private static final AtomicLong IDS = new AtomicLong(1_000_000);

  /** The source's pool, capturing each commit into the bound context. */
  abstract CapturingDataSource source();

  /** The source's pool as the application has it, capturing nothing. */
  abstract DataSource sourcePool();

  /** A pool of {@link ReplicaPools} on the replica. */
  abstract DataSource replicaPool();

  /**
   * A pool of {@link ReplicaPools} of one connection on the source, as a replica's pool is after a
   * failover made it the source; closed by the caller.
   */
  abstract HikariDataSource singleConnectionReplicaPoolOnSource();

  /** Stops the replica applying what it receives. */
  abstract void pauseApplying();

  /** Lets the replica apply again; a replica that applies already is left as it is. */
  abstract void resumeApplying();

  /** Stops the replica's process, as a hung server: connections stay open, nothing answers. */
  abstract void freezeReplica();

  abstract void thawReplica();

  /** Returns once a read's wait runs on the replica. */
  abstract void awaitRunningWait();

  /**
   * A position no server of this topology executed nor ever will, as a token of another cluster
   * holds: its origin is unknown here.
   */
  abstract GtidSet foreignPosition();

  @AfterEach
  void applyAgain() {
    resumeApplying();
  }

  @Test
  void theCaptureAfterACommitContainsItAndTheReplicaHasItOnlyOnceApplied() throws SQLException {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      GtidSet token = binding.context().gtids();

      assertThat(token.isEmpty()).isFalse();
      try (Connection c = sourcePool().getConnection()) {
        assertThat(Dialect.of(c).hasExecuted(c, token)).isTrue();
      }
      try (Connection c = replicaPool().getConnection()) {
        assertThat(status(c, id)).isNull();
        assertAppliedOnlyOnceResumed(c, token, id, "created");
      }
    }
  }

  @Test
  void aCommitOfAnExplicitTransactionIsCapturedToo() throws SQLException {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = IDS.incrementAndGet();
      try (Connection c = source().getConnection()) {
        c.setAutoCommit(false);
        insert(c, id, "in a transaction");
        assertThat(binding.context().gtids().isEmpty()).isTrue();
        c.commit();
      }
      GtidSet token = binding.context().gtids();
      try (Connection c = replicaPool().getConnection()) {
        assertAppliedOnlyOnceResumed(c, token, id, "in a transaction");
      }
    }
  }

  @Test
  void theWaitEndsWithTheBudgetWhileApplyingIsPaused() throws SQLException {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      create("created");
      GtidSet token = binding.context().gtids();
      try (Connection c = replicaPool().getConnection()) {
        long begun = System.nanoTime();
        boolean reached = Dialect.of(c).await(c, token, ms(300));
        long took = System.nanoTime() - begun;

        assertThat(reached).isFalse();
        assertThat(took).isBetween(ms(300) - ms(5), ms(300) + ms(200));
        // The connection is fine after a wait that ran out.
        assertThat(Dialect.of(c).hasExecuted(c, token)).isFalse();
      }
    }
  }

  @Test
  void theWaitEndsWhenApplyingResumesMidWait() throws Exception {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      GtidSet token = binding.context().gtids();
      try (Connection c = replicaPool().getConnection()) {
        CompletableFuture<Void> resume =
            CompletableFuture.runAsync(
                this::resumeApplying,
                CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
        long begun = System.nanoTime();
        boolean reached = Dialect.of(c).await(c, token, TimeUnit.SECONDS.toNanos(20));
        long took = System.nanoTime() - begun;
        resume.get();

        assertThat(reached).isTrue();
        assertThat(took).isBetween(ms(150), TimeUnit.SECONDS.toNanos(10));
        assertThat(status(c, id)).isEqualTo("created");
      }
    }
  }

  /** The read's socket bound covers the whole wait: a replica frozen midway does not hold it. */
  @Test
  void aReplicaFrozenMidWaitEndsTheReadWithItsBudget() throws Exception {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("never applied");
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(600));
      CompletableFuture<Void> freeze =
          CompletableFuture.runAsync(
              this::freezeReplica, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
      long begun = System.nanoTime();
      try {
        assertThatThrownBy(() -> reader.read(options, c -> status(c, id)))
            .isInstanceOfSatisfying(
                ConsistentReadException.class,
                e -> assertThat(e.reason()).isIn(Reason.WAIT_TIMEOUT, Reason.REPLICA_ERROR));
        assertThat(System.nanoTime() - begun).isLessThan(ms(600) + ms(200));
      } finally {
        freeze.get();
        thawReplica();
      }
    }
  }

  @Test
  void theReaderServesTheWriteFromTheReplica() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FAIL);

      ReadResult<@Nullable String> first = reader.read(ReadOptions.defaults(), c -> status(c, id));
      ReadResult<@Nullable String> second = reader.read(ReadOptions.defaults(), c -> status(c, id));

      assertThat(first.value()).isEqualTo("created");
      assertThat(first.record().reason()).isIn(Reason.REPLICA_AFTER_WAIT, Reason.REPLICA_CAUGHT_UP);
      assertThat(first.record().role()).isEqualTo(NodeRole.REPLICA);
      assertThat(second.value()).isEqualTo("created");
      assertThat(second.record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
      assertThat(second.record().waited()).isZero();
    }
  }

  /**
   * The {@code GLOBAL} level without a token: another client's commit, not yet applied, is waited
   * for on the replica, where a token-less {@code SESSION} read misses it.
   */
  @Test
  void aGlobalReadWithoutATokenSeesAnotherClientsCommitOnTheReplica() throws Exception {
    pauseApplying();
    long id = IDS.incrementAndGet();
    try (Connection c = sourcePool().getConnection()) {
      insert(c, id, "someone else's");
    }
    ConsistentReader reader = ConsistentReader.builder(replicaPool(), sourcePool()).build();
    ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(5));
    try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
      ReadResult<@Nullable String> session = reader.read(options, c -> status(c, id));
      assertThat(session.value()).as("control: token-less SESSION read").isNull();

      CompletableFuture<Void> resume =
          CompletableFuture.runAsync(
              this::resumeApplying, CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
      ReadResult<@Nullable String> global =
          reader.read(options.withLevel(ConsistencyLevel.GLOBAL), c -> status(c, id));
      resume.get();

      assertThat(global.value()).isEqualTo("someone else's");
      assertThat(global.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    }
  }

  /**
   * Monotonic reads for a client that never writes: having read another user's row on the source,
   * its next read does not find the row gone on a replica that has not applied it.
   */
  @Test
  void withMonotonicReadsARowSeenOnTheSourceIsNotReadGoneOnALaggingReplica() throws Exception {
    pauseApplying();
    long id = IDS.incrementAndGet();
    try (Connection c = sourcePool().getConnection()) {
      insert(c, id, "theirs");
    }
    try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
      ConsistentReader reader =
          ConsistentReader.builder(replicaPool(), source())
              .defaults(
                  ReadOptions.defaults()
                      .withPolicy(ReadPolicy.FALLBACK_TO_SOURCE)
                      .withTimeout(Duration.ofMillis(600))
                      .withMonotonic(true))
              .build();
      ReadResult<@Nullable String> onSource =
          reader.read(reader.defaults().withSourceOnly(), c -> status(c, id));
      assertThat(onSource.value()).isEqualTo("theirs");
      assertThat(onSource.record().reason()).isEqualTo(Reason.SOURCE_BY_POLICY);

      ReadResult<@Nullable String> next = reader.read(c -> status(c, id));

      assertThat(next.value()).as("never back to a state without the row").isEqualTo("theirs");
      assertThat(next.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
    }
  }

  @Test
  void theReaderFallsBackToTheSourceWhileApplyingIsPaused() throws SQLException {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FALLBACK_TO_SOURCE);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(800));

      ReadResult<@Nullable String> result = reader.read(options, c -> status(c, id));

      assertThat(result.value()).isEqualTo("created");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(result.record().role()).isEqualTo(NodeRole.SOURCE);
      assertThat(result.record().elapsed())
          .isLessThan(options.timeout().plus(Duration.ofMillis(50)));
    }
  }

  @Test
  void theReaderFailsWithinTheBudgetWhenThePolicySaysFail() {
    pauseApplying();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      long begun = System.nanoTime();

      assertThatThrownBy(
              () ->
                  reader.read(
                      reader.defaults().withTimeout(Duration.ofMillis(500)), c -> status(c, id)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.WAIT_TIMEOUT);
                assertThat(e.required()).isEqualTo(binding.context().gtids());
              });
      assertThat(System.nanoTime() - begun).isLessThan(ms(500) + ms(300));
    }
  }

  @Test
  void applyingResumedMidWaitServesTheReadFreshFromTheReplica() throws Exception {
    pauseApplying();
    ExecutorService background = Executors.newSingleThreadExecutor();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(5));
      GtidSet token = binding.context().gtids();
      Future<ReadResult<@Nullable String>> read =
          background.submit(
              () -> {
                try (ConsistencyContext.Binding reading = ConsistencyContext.open()) {
                  reading.context().merge(token);
                  return reader.read(options, c -> status(c, id));
                }
              });
      awaitRunningWait();
      resumeApplying();

      ReadResult<@Nullable String> result = read.get(10, TimeUnit.SECONDS);
      assertThat(result.value()).isEqualTo("created");
      assertThat(result.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(result.record().elapsed()).isLessThan(options.timeout());
    } finally {
      background.shutdownNow();
    }
  }

  @Test
  void theReaderRefusesATokenOfAnotherCluster() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().merge(foreignPosition());
      ConsistentReader reader = reader(ReadPolicy.FALLBACK_TO_SOURCE);

      assertRefused(
          Reason.TOKEN_REJECTED, () -> reader.read(ReadOptions.defaults(), c -> status(c, 1)));
    }
  }

  /**
   * A read that fell back to the source runs on a connection set read-only: a write in it would
   * commit there without being captured, and the answer's token would miss it.
   */
  @Test
  void aWriteInAReadOnTheSourceIsRefusedAndTheConnectionIsWritableAfter() throws SQLException {
    long id = IDS.incrementAndGet();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = reader(ReadPolicy.FAIL);

      assertThatThrownBy(
              () ->
                  reader.read(
                      reader.defaults().withSourceOnly(),
                      c -> {
                        insert(c, id, "written in a read");
                        return null;
                      }))
          .isInstanceOf(SQLException.class)
          .hasMessageMatching("(?is).*read[- ]only.*");
      assertThat(binding.context().gtids().isEmpty()).isTrue();
    }
    try (Connection c = sourcePool().getConnection()) {
      assertThat(status(c, id)).as("nothing was written").isNull();
      assertThat(c.getAutoCommit()).isTrue();
      assertThat(c.isReadOnly()).isFalse();
    }
    assertThat(create("after the read")).as("the pool's connections still write").isPositive();
  }

  @Test
  void aWriteInAReadOnTheReplicaIsRefused() throws SQLException {
    long id = IDS.incrementAndGet();
    assertAWriteInAReplicaReadFails(id);
    try (Connection c = sourcePool().getConnection()) {
      assertThat(status(c, id)).isNull();
    }
  }

  /**
   * A replica's pool is the writer's once a failover promoted the replica: a connection a read left
   * read-only takes writes again.
   */
  @Test
  void writesTakeAConnectionAReadLeftReadOnlyAndWriteOnIt() throws SQLException {
    try (HikariDataSource pool = singleConnectionReplicaPoolOnSource()) {
      CapturingDataSource writes = CapturingDataSource.wrap(pool);
      ConsistentReader reader = ConsistentReader.builder(pool, writes).build();
      long id = IDS.incrementAndGet();
      assertThat(reader.read(c -> status(c, id)).record().reason())
          .isEqualTo(Reason.REPLICA_NO_TOKEN);

      try (Connection c = writes.getConnection()) {
        insert(c, id, "written");
      }

      assertThat(reader.read(c -> status(c, id)).value()).isEqualTo("written");
    }
  }

  /**
   * After an idle pause the pool validates the connection it hands out, which a frozen replica
   * never answers: the read's own deadline bounds it, and the fallback still has its share.
   */
  @Test
  void aFrozenReplicaDoesNotHoldTheReadPastItsDeadlineFallbackIncluded() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = reader(ReadPolicy.FALLBACK_TO_SOURCE);
      long before = create("before");
      assertThat(reader.read(c -> status(c, before)).value()).isEqualTo("before");
      freezeReplica();
      try {
        long id = create("while frozen");
        // Longer than the pool's bypass of validation for a connection used just now (500 ms).
        Thread.sleep(700);
        ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(1));
        long begun = System.nanoTime();

        ReadResult<@Nullable String> read = reader.read(options, c -> status(c, id));

        assertThat(read.value()).isEqualTo("while frozen");
        assertThat(read.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
        assertThat(System.nanoTime() - begun).isLessThan(options.timeout().toNanos() + ms(50));
      } finally {
        thawReplica();
      }
    }
  }

  /**
   * The replica behind {@code c} lacks {@code token} while applying is paused, and once applying
   * resumes reaches it, with order {@code id} in {@code status}.
   */
  void assertAppliedOnlyOnceResumed(Connection c, GtidSet token, long id, String status)
      throws SQLException {
    assertThat(Dialect.of(c).hasExecuted(c, token)).isFalse();
    resumeApplying();
    assertThat(Dialect.of(c).await(c, token, TimeUnit.SECONDS.toNanos(10))).isTrue();
    assertThat(status(c, id)).isEqualTo(status);
  }

  /** A write of order {@code id} in a read on the replica fails; returns the failure to look at. */
  AbstractThrowableAssert<?, ? extends Throwable> assertAWriteInAReplicaReadFails(long id) {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      return assertThatThrownBy(
              () ->
                  reader.read(
                      c -> {
                        insert(c, id, "errant");
                        return null;
                      }))
          .isInstanceOf(SQLException.class);
    }
  }

  /**
   * Reads that waited in turn, while applying was paused, for writes each of its own: while they
   * waited {@code pool} lent one connection between them, and once applying resumes read {@code i}
   * returns the status {@code prefix + i} from the replica within {@code timeout}.
   */
  void assertReadsWaitingInTurnHeldOneConnection(
      HikariDataSource pool,
      List<Future<ReadResult<String>>> reads,
      String prefix,
      Duration timeout)
      throws Exception {
    int most = Pools.mostInUse(pool, Duration.ofMillis(500));
    resumeApplying();

    for (int i = 0; i < reads.size(); i++) {
      ReadResult<String> read = reads.get(i).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(read.value()).isEqualTo(prefix + i);
      assertThat(read.record().role()).isEqualTo(NodeRole.REPLICA);
    }
    assertThat(most).as("replica connections held while the reads waited").isEqualTo(1);
  }

  /**
   * Leaves the transaction {@code begin} starts open on the connection {@code pool} lends, having
   * read order {@code id} in it with {@code status}: the next read on it would see that snapshot.
   */
  static void leaveATransactionOpen(DataSource pool, String begin, long id, String status)
      throws SQLException {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute(begin);
      assertThat(status(c, id)).isEqualTo(status);
    }
  }

  /** The contract's table as MySQL and MariaDB create it, in database {@code db}. */
  static String createOrders(String db) {
    return "CREATE TABLE `"
        + db
        + "`.orders (id BIGINT PRIMARY KEY, status VARCHAR(20), revision BIGINT)";
  }

  ConsistentReader reader(ReadPolicy policy) {
    return ConsistentReader.builder(replicaPool(), source())
        .defaults(ReadOptions.defaults().withPolicy(policy))
        .build();
  }

  /** Inserts an order through the capturing source, in autocommit; returns its id. */
  long create(String status) {
    return create(source(), IDS.incrementAndGet(), status);
  }

  /** Inserts order {@code id} through {@code source}, in autocommit; returns its id. */
  static long create(DataSource source, long id, String status) {
    try (Connection c = source.getConnection()) {
      insert(c, id, status);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return id;
  }

  static void insert(Connection c, long id, String status) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, 1)")) {
      ps.setLong(1, id);
      ps.setString(2, status);
      ps.executeUpdate();
    }
  }

  static @Nullable String status(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }
}

package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.Closing;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.WalPosition;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read path on PostgreSQL streaming replication, a primary and a hot standby run by the
 * testkit: the {@link ReadPathContract}, and what only PostgreSQL has (WAL positions and timelines,
 * a wait that polls, replay conflicts, synchronous standbys). The reads run as an application role,
 * not as a superuser.
 */
class PostgresReadPathIT extends ReadPathContract {

  private static PostgresTopology topology;
  private static PostgresNode standby;
  private static HikariDataSource primaryPool;
  private static HikariDataSource standbyPool;
  private static CapturingDataSource source;
  private static PostgresOrders orders;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(1).start();
    standby = topology.standby();
    orders = new PostgresOrders(topology);
    primaryPool = orders.pool(topology.primary());
    standbyPool = orders.replicaPool(standby);
    source = CapturingDataSource.wrap(primaryPool);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(standbyPool, primaryPool, topology);
  }

  @Override
  CapturingDataSource source() {
    return source;
  }

  @Override
  DataSource sourcePool() {
    return primaryPool;
  }

  @Override
  DataSource replicaPool() {
    return standbyPool;
  }

  @Override
  HikariDataSource singleConnectionReplicaPoolOnSource() {
    return orders.singleConnectionReplicaPool(topology.primary());
  }

  @Override
  void pauseApplying() {
    standby.pauseReplay();
  }

  @Override
  void resumeApplying() {
    standby.resumeReplay();
  }

  @Override
  void freezeReplica() {
    standby.freeze();
  }

  @Override
  void thawReplica() {
    standby.thaw();
  }

  /** A poll of the replay position, or PostgreSQL 19's wait, by the application's role. */
  @Override
  void awaitRunningWait() {
    PostgresOrders.awaitTrue(
        () ->
            !"0"
                .equals(
                    standby.queryString(
                        "SELECT count(*) FROM pg_stat_activity WHERE usename = '"
                            + PostgresOrders.ROLE
                            + "' AND (query LIKE '%pg_last_wal_replay_lsn%'"
                            + " OR query LIKE 'WAIT FOR LSN%')")),
        Duration.ofSeconds(10),
        "a wait on the standby");
  }

  @Override
  GtidSet foreignPosition() {
    return new WalPosition(systemId(topology.primary()) + 1, 1, 1_000).toGtidSet();
  }

  @Test
  void theCaptureIsTheCommitsWalPositionOnThePrimarysTimeline() throws SQLException {
    long before = WalPosition.parseLsn(topology.primary().walLsn());
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      create("created");
      GtidSet token = binding.context().gtids();

      WalPosition captured = WalPosition.in(token, token.uuids().iterator().next());
      assertThat(token.uuidCount()).isEqualTo(1);
      assertThat(captured).isNotNull();
      assertThat(captured.systemId()).isEqualTo(systemId(topology.primary()));
      assertThat(captured.timeline()).isEqualTo(topology.primary().timeline());
      assertThat(captured.lsn()).isGreaterThan(before);
    }
  }

  /**
   * A commit that fails turns the context dirty, and its reason is stored in the scope store and
   * logged: it names the failure by its class and SQLSTATE, not by PgJDBC's message, which quotes
   * the server's Detail and so the row (here a deferred unique violation raised by the commit).
   */
  @Test
  void theDirtyReasonOfAFailedCommitNamesItsSqlStateWithoutTheRow() throws SQLException {
    orders.onPrimary(
        "CREATE TABLE users (id bigint PRIMARY KEY,"
            + " email text CONSTRAINT u_email_key UNIQUE DEFERRABLE INITIALLY DEFERRED)",
        "GRANT ALL ON users TO " + PostgresOrders.ROLE);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = source.getConnection()) {
        c.setAutoCommit(false);
        for (long id : new long[] {1, 2}) {
          try (PreparedStatement ps = c.prepareStatement("INSERT INTO users VALUES (?, ?)")) {
            ps.setLong(1, id);
            ps.setString(2, "alice@example.com");
            ps.executeUpdate();
          }
        }
        assertThatThrownBy(c::commit)
            .as("the driver's own message quotes the row")
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
            .hasMessageContaining("alice@example.com");
      }

      assertThat(binding.context().dirtyBecause())
          .contains("outcome is unknown")
          .contains("PSQLException")
          .contains("SQLSTATE 23505")
          .doesNotContain("alice");
      assertThat(binding.context().toString()).doesNotContain("alice");
    }
  }

  /**
   * A cleanup record (here a VACUUM's) between the standby's position and the token conflicts with
   * every snapshot taken before it: a wait that held one for its whole length would stop the replay
   * it waits for until the standby's conflict delay (30 s by default) or the budget ran out.
   */
  @Test
  void theWaitHoldsNoSnapshotThatReplayOfACleanupWouldWaitFor() throws Exception {
    long updated = create("before the vacuum");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
    standby.pauseReplay();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      orders.onPrimary(
          "UPDATE orders SET revision = revision + 1 WHERE id = " + updated, "VACUUM orders");
      long id = create("after the vacuum");
      GtidSet token = binding.context().gtids();
      try (Connection c = standbyPool.getConnection()) {
        CompletableFuture<Void> resume = standby.resumeReplayAfter(Duration.ofMillis(100));
        long begun = System.nanoTime();
        boolean reached = Dialect.of(c).await(c, token, TimeUnit.SECONDS.toNanos(5));
        long took = System.nanoTime() - begun;
        resume.get();

        assertThat(reached).isTrue();
        assertThat(took).isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(status(c, id)).isEqualTo("after the vacuum");
      }
    }
  }

  /**
   * The wait polls, and the socket bound its caller set covers the whole wait: a standby that
   * freezes between two polls must not hold the wait that long past its budget.
   */
  @Test
  void aStandbyFrozenMidWaitEndsTheWaitWithItsBudget() throws Exception {
    standby.pauseReplay();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      create("never replayed in time");
      GtidSet token = binding.context().gtids();
      try (Connection c = standbyPool.getConnection()) {
        CompletableFuture<Void> freeze =
            CompletableFuture.runAsync(
                standby::freeze, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
        long begun = System.nanoTime();
        try {
          assertTimeoutPreemptively(
              Duration.ofSeconds(5),
              () -> {
                try {
                  Dialect.of(c).await(c, token, TimeUnit.MILLISECONDS.toNanos(600));
                } catch (SQLException cut) {
                  // The frozen standby's poll is cut: what matters is when.
                }
              });
          assertThat(System.nanoTime() - begun).isLessThan(ms(800));
        } finally {
          freeze.get();
          standby.thaw();
        }
      }
    }
  }

  @Test
  void aTransactionThatCommitsAsynchronouslyIsCapturedWhereItsCommitMayStillBe()
      throws SQLException {
    standby.pauseReplay();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = PostgresOrders.nextId();
      try (Connection c = source.getConnection()) {
        c.setAutoCommit(false);
        c.createStatement().execute("SET LOCAL synchronous_commit = off");
        insert(c, id, "asynchronous");
        c.commit();
      }
      GtidSet token = binding.context().gtids();
      try (Connection c = standbyPool.getConnection()) {
        assertThat(Dialect.of(c).hasExecuted(c, token)).isFalse();
        standby.resumeReplay();
        assertThat(Dialect.of(c).await(c, token, TimeUnit.SECONDS.toNanos(10))).isTrue();
        assertThat(status(c, id)).isEqualTo("asynchronous");
      }
    }
  }

  @Test
  void aPositionThisStandbyCannotReplayIsNotWaitedFor() throws SQLException {
    long systemId = systemId(topology.primary());
    long timeline = topology.primary().timeline();
    GtidSet nextTimeline = new WalPosition(systemId, timeline + 1, 1_000).toGtidSet();
    GtidSet otherCluster = new WalPosition(systemId + 1, timeline, 1_000).toGtidSet();
    try (Connection c = standbyPool.getConnection()) {
      for (GtidSet token : new GtidSet[] {nextTimeline, otherCluster}) {
        long begun = System.nanoTime();
        assertThat(Dialect.of(c).await(c, token, TimeUnit.SECONDS.toNanos(10))).isFalse();
        assertThat(System.nanoTime() - begun).isLessThan(TimeUnit.SECONDS.toNanos(2));
      }
    }
  }

  /**
   * Before PostgreSQL 19 a wait polls the standby, back to back for its first millisecond, then
   * once a millisecond, each poll a transaction of its own; from 19 it is one {@code WAIT FOR LSN}
   * between two looks at the standby's timeline, which it knows nothing of, then the query. Counted
   * by the standby's transactions in a database of the read's own while replay is paused for 300
   * ms, the backend made to flush its statistics after the read.
   */
  @Test
  void aLongWaitPollsOnceAMillisecondOrFrom19WaitsOnTheServer() throws Exception {
    int major = Integer.parseInt(standby.queryString("SHOW server_version_num")) / 10_000;
    PostgresOrders own = new PostgresOrders(topology);
    try (HikariDataSource pool = own.singleConnectionReplicaPool(standby);
        HikariDataSource primaryPool = own.pool(topology.primary());
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      CapturingDataSource primary = CapturingDataSource.wrap(primaryPool);
      ConsistentReader reader =
          ConsistentReader.builder(pool, primary)
              .defaults(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL))
              .build();
      long warm = PostgresOrders.create(primary, "warming up");
      assertThat(reader.read(ReadOptions.defaults(), c -> status(c, warm)).value())
          .isEqualTo("warming up");
      long before = transactions(pool, own.database());
      standby.pauseReplay();
      long id = PostgresOrders.create(primary, "created");
      CompletableFuture<Void> resume = standby.resumeReplayAfter(Duration.ofMillis(300));

      ReadResult<String> read = reader.read(ReadOptions.defaults(), c -> status(c, id));
      resume.get();
      long transactions = transactions(pool, own.database()) - before - 1;

      assertThat(read.value()).isEqualTo("created");
      assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(read.record().waited()).isGreaterThan(Duration.ofMillis(250));
      if (major >= 19) {
        assertThat(transactions)
            .as("PostgreSQL %d: a look, the wait, a look, the query", major)
            .isEqualTo(4);
      } else {
        assertThat(transactions)
            .as("PostgreSQL %d: a poll a millisecond, then the query", major)
            .isGreaterThan(200L);
      }
    }
  }

  /**
   * The transactions the standby counted in {@code database} once the connection of {@code pool}
   * flushed its statistics, which its own statement to that end adds one to.
   */
  private static long transactions(HikariDataSource pool, String database) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute("SELECT pg_stat_force_next_flush()");
    }
    return Long.parseLong(
        standby.queryString(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '"
                + database
                + "'"));
  }

  /**
   * Under synchronous replication the primary keeps a commit invisible while it waits for a
   * synchronous standby, though its WAL is flushed and an asynchronous standby may show it already:
   * a token holding what that standby showed must not pass the primary's position check while the
   * primary still hides the row.
   */
  @Test
  void aCommitThePrimaryHoldsForASynchronousStandbyIsNotReadAsMissingOnThePrimary()
      throws Exception {
    topology
        .primary()
        .execute(
            "ALTER SYSTEM SET synchronous_standby_names = 'nobody'", "SELECT pg_reload_conf()");
    long id = 0;
    CompletableFuture<Void> insert = null;
    try {
      // The primary's checkpointer tells backends that synchronous standbys are named when it
      // takes the reloaded setting: until then a commit does not wait, and the test writes again.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      do {
        assertThat(System.nanoTime() - deadline).as("a commit waits for the standby").isNegative();
        long next = PostgresOrders.nextId();
        id = next;
        insert =
            CompletableFuture.runAsync(
                () -> {
                  try (Connection c = primaryPool.getConnection()) {
                    insert(c, next, "held");
                  } catch (SQLException e) {
                    throw new IllegalStateException(e);
                  }
                });
        while (!insert.isDone() && !waitingForSynchronousStandby()) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
      } while (insert.isDone());
      long held = id;
      GtidSet seen;
      try (Connection c = standbyPool.getConnection()) {
        long shown = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (status(c, held) == null) {
          assertThat(System.nanoTime() - shown).as("the standby shows the row").isNegative();
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        seen = Dialect.of(c).executed(c);
      }
      try (Connection c = primaryPool.getConnection()) {
        assertThat(status(c, held)).as("the primary hides it meanwhile").isNull();
      }
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      try (ConsistencyContext.Binding binding = ConsistencyContext.open(seen)) {
        CompletableFuture<Void> release =
            CompletableFuture.runAsync(
                () ->
                    topology
                        .primary()
                        .execute(
                            "ALTER SYSTEM RESET synchronous_standby_names",
                            "SELECT pg_reload_conf()"),
                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
        ReadResult<String> read =
            reader.read(
                reader.defaults().withSourceOnly().withTimeout(Duration.ofSeconds(5)),
                c -> status(c, held));
        release.get();

        assertThat(read.value()).isEqualTo("held");
      }
    } finally {
      topology
          .primary()
          .execute("ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()");
      if (insert != null) {
        insert.get(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * A pooled connection left inside a transaction begun as SQL text keeps that transaction's
   * snapshot: the read must end it, or it would see the standby as it was before the wait.
   */
  @Test
  void aTransactionLeftOpenOnThePooledConnectionIsEndedBeforeTheWait() throws SQLException {
    try (HikariDataSource single = orders.singleConnectionReplicaPool(standby)) {
      long before = create("before");
      topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
      leaveATransactionOpen(single, "BEGIN ISOLATION LEVEL REPEATABLE READ", before, "before");
      standby.pauseReplay();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long id = create("created");
        CompletableFuture<Void> resume = standby.resumeReplayAfter(Duration.ofMillis(200));
        ReadResult<String> read =
            ConsistentReader.builder(single, source)
                .defaults(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL))
                .build()
                .read(c -> status(c, id));
        resume.join();

        assertThat(read.value()).isEqualTo("created");
        assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      }
    }
  }

  /**
   * A standby cancels a read that holds up replay past {@code max_standby_streaming_delay} (here a
   * lock the primary's ALTER TABLE needs): a replica failure, which the policy handles, not an
   * error of the read.
   */
  @Test
  void aReadTheStandbyCancelsForReplayIsAReplicaFailureThePolicyHandles() throws SQLException {
    long id = create("created");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    standby.execute(
        "ALTER SYSTEM SET max_standby_streaming_delay = '100ms'", "SELECT pg_reload_conf()");
    try {
      for (ReadPolicy policy : List.of(ReadPolicy.FALLBACK_TO_SOURCE, ReadPolicy.FAIL)) {
        CompletableFuture<Void> alter =
            CompletableFuture.runAsync(
                () -> orders.onPrimary("ALTER TABLE orders ADD COLUMN note text"),
                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
        ConsistentReader reader =
            ConsistentReader.builder(standbyPool, source)
                .defaults(
                    ReadOptions.defaults().withPolicy(policy).withTimeout(Duration.ofSeconds(5)))
                .build();
        try {
          if (policy == ReadPolicy.FAIL) {
            assertThatThrownBy(() -> reader.read(c -> slowOnStandby(c, id)))
                .isInstanceOfSatisfying(
                    ConsistentReadException.class,
                    e -> {
                      assertThat(e.reason()).isEqualTo(Reason.REPLICA_ERROR);
                      assertThat(e).hasMessageContaining("conflict with recovery");
                    });
          } else {
            ReadResult<String> result = reader.read(c -> slowOnStandby(c, id));
            assertThat(result.value()).isEqualTo("created");
            assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
          }
        } finally {
          alter.join();
          orders.onPrimary("ALTER TABLE orders DROP COLUMN note");
        }
      }
    } finally {
      standby.execute("ALTER SYSTEM RESET max_standby_streaming_delay", "SELECT pg_reload_conf()");
    }
  }

  /**
   * A hot standby refuses a SERIALIZABLE transaction (SQLSTATE 0A000), which the primary runs: a
   * replica failure the policy handles, not the driver's error. Asked through JDBC, Tidemark
   * refuses it before sending it; asked as SQL text, the standby does.
   */
  @Test
  void aSerializableReadTheStandbyRefusesIsAReplicaFailureThePolicyHandles() throws SQLException {
    long id = create("created");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    SqlFunction<String> throughJdbc =
        c -> {
          c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
          c.setAutoCommit(false);
          return status(c, id);
        };
    SqlFunction<String> asSql =
        c -> {
          c.setAutoCommit(false);
          try (Statement s = c.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
          }
          return status(c, id);
        };
    for (SqlFunction<String> serializable : List.of(throughJdbc, asSql)) {
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        ReadResult<String> fellBack = reader(ReadPolicy.FALLBACK_TO_SOURCE).read(serializable);

        assertThat(fellBack.value()).isEqualTo("created");
        assertThat(fellBack.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
        assertThat(fellBack.record().role()).isEqualTo(NodeRole.SOURCE);

        assertThatThrownBy(() -> reader(ReadPolicy.FAIL).read(serializable))
            .isInstanceOfSatisfying(
                ConsistentReadException.class,
                e -> {
                  assertThat(e.reason()).isEqualTo(Reason.REPLICA_ERROR);
                  assertThat(e).hasMessageContaining("SERIALIZABLE").hasMessageContaining("0A000");
                });
      }
      try (Connection c = standbyPool.getConnection()) {
        assertThat(status(c, id)).as("the standby's pool still serves reads").isEqualTo("created");
      }
    }
  }

  /** The order's status, the query sleeping 3 s (holding its table) when it runs on a standby. */
  private static @Nullable String slowOnStandby(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT status FROM orders WHERE id = ?"
                + " AND (NOT pg_is_in_recovery() OR pg_sleep(3) IS NOT NULL)")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /**
   * Reads each with a token of its own, in the order of their writes, wait on one connection
   * between them: the first waits on the standby, the others in memory, and what it sees of replay
   * lets go those whose token replay reached (each poll before PostgreSQL 19, the look after its
   * {@code WAIT FOR LSN} on 19).
   */
  @Test
  void readsWaitingOnAStandbyEachForItsOwnTokenHoldOneConnectionBetweenThem() throws Exception {
    int reads = 6;
    ExecutorService clients = Executors.newFixedThreadPool(reads);
    try (HikariDataSource pool = orders.replicaPool(standby)) {
      ConsistentReader reader = ConsistentReader.builder(pool, source).build();
      reader.read(c -> status(c, 0)); // the reader's first look at the standby
      standby.pauseReplay();
      List<Long> ids = new ArrayList<>();
      List<GtidSet> tokens = new ArrayList<>();
      for (int i = 0; i < reads; i++) {
        try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
          ids.add(create("created " + i));
          tokens.add(binding.context().gtids());
        }
      }
      List<Future<ReadResult<String>>> pending = new ArrayList<>();
      for (int i = 0; i < reads; i++) {
        long id = ids.get(i);
        ReadOptions options =
            reader.defaults().requiring(tokens.get(i)).withTimeout(Duration.ofSeconds(10));
        pending.add(clients.submit(() -> reader.read(options, c -> status(c, id))));
        Thread.sleep(20);
      }
      assertReadsWaitingInTurnHeldOneConnection(pool, pending, "created ", Duration.ofSeconds(10));
    } finally {
      clients.shutdownNow();
    }
  }

  /** Whether a backend of the primary waits for a synchronous standby now. */
  private static boolean waitingForSynchronousStandby() {
    return !"0"
        .equals(
            String.valueOf(
                topology
                    .primary()
                    .queryString(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")));
  }

  private static long systemId(PostgresNode node) {
    return PostgresOrders.systemId(node);
  }
}

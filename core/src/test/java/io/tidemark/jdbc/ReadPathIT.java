package io.tidemark.jdbc;

import static io.tidemark.jdbc.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.internal.SocketTimeout;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.math.BigDecimal;
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
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The read path against a real source and replica: never stale, within the budget, by the policy.
 * The replica's general log records every statement, so the tests also check what was sent.
 */
@ExtendWith(TestkitExtension.class)
class ReadPathIT extends ReadPathContract {

  private static final Duration SLACK = Duration.ofMillis(50);
  private static final AtomicLong IDS = new AtomicLong();

  private static MySqlTopology topology;
  private static MySqlNode replica;
  private static String db;
  private static HikariDataSource sourcePool;
  private static HikariDataSource replicaPool;
  private static CapturingDataSource source;
  private static ExecutorService background;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    replica = topology.replica();
    db = topology.createDatabase("reads");
    topology.source().execute(createOrders(db));
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    replica.execute("SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 'ON'");
    sourcePool = Pools.tracking(topology.source(), db, 4);
    replicaPool = Pools.replica(replica, db, 24);
    source = CapturingDataSource.wrap(sourcePool);
    background = Executors.newCachedThreadPool();
  }

  @Override
  CapturingDataSource source() {
    return source;
  }

  @Override
  DataSource sourcePool() {
    return sourcePool;
  }

  @Override
  DataSource replicaPool() {
    return replicaPool;
  }

  @Override
  HikariDataSource singleConnectionReplicaPoolOnSource() {
    return Pools.replica(topology.source(), db, 1);
  }

  @Override
  void pauseApplying() {
    replica.pauseApplier();
  }

  @Override
  void resumeApplying() {
    replica.resumeApplier();
  }

  @Override
  void freezeReplica() {
    replica.freeze();
  }

  @Override
  void thawReplica() {
    replica.thaw();
  }

  @Override
  void awaitRunningWait() {
    RunningWaits.awaitOne(replica);
  }

  @Override
  GtidSet foreignPosition() {
    return GtidSet.parse("0badf00d-0000-4000-8000-000000000002:1-3");
  }

  @AfterAll
  static void everyWaitSentHadAPositiveTimeout() {
    List<String> waits = sentWaits("%");
    replica.execute("SET GLOBAL general_log = 'OFF'");
    background.shutdownNow();
    sourcePool.close();
    replicaPool.close();
    assertThat(waits).isNotEmpty();
    for (String wait : waits) {
      String call =
          wait.substring(0, wait.indexOf(')', wait.indexOf("WAIT_FOR_EXECUTED_GTID_SET")));
      String timeout = call.substring(call.lastIndexOf(',') + 1).trim();
      String timer = wait.substring(wait.indexOf('(') + 1, wait.indexOf(')'));
      assertThat(new BigDecimal(timeout)).as(wait).isPositive();
      assertThat(new BigDecimal(timeout).movePointRight(3))
          .as(wait)
          .isGreaterThanOrEqualTo(new BigDecimal(timer));
    }
  }

  @Test
  void aWriteInsideAReadThatFellBackToTheSourceIsRefusedNotLeftUncaptured() {
    replica.pauseApplier();
    long written = IDS.incrementAndGet();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      create("created");
      ConsistentReader reader = reader(ReadPolicy.FALLBACK_TO_SOURCE);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(400));

      assertThatThrownBy(
              () ->
                  reader.read(
                      options,
                      c -> {
                        try (PreparedStatement ps =
                            c.prepareStatement("INSERT INTO orders VALUES (?, 'sneaked', 1)")) {
                          ps.setLong(1, written);
                          return ps.executeUpdate();
                        }
                      }))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("read-only");
    }
    assertThat(
            topology
                .source()
                .queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + written))
        .isEqualTo("0");
  }

  @Test
  void aCaughtUpReadSendsNoStatementButItsQuery() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      reader.read(c -> status(c, id));
      String marker = "caught-up-" + id;
      String since = replica.queryString("SELECT NOW(6)");

      ReadResult<String> read =
          reader.read(
              c -> {
                try (PreparedStatement ps =
                    c.prepareStatement(
                        "SELECT status FROM orders WHERE id = ? /* " + marker + " */")) {
                  ps.setLong(1, id);
                  try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                  }
                }
              });

      assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
      assertThat(read.value()).isEqualTo("created");
      ExecutionRecord record = read.record();
      assertThat(record.acquiring()).isPositive();
      assertThat(record.querying()).isPositive();
      assertThat(record.acquiring().plus(record.querying())).isLessThan(record.elapsed());
      // No read-only toggling, no checks: the query alone.
      assertThat(loggedSince(since))
          .singleElement()
          .satisfies(sql -> assertThat(sql).contains(marker));
    }
  }

  /** The statements the replica logged since {@code since} ({@code NOW(6)}), bar this look's. */
  private static List<String> loggedSince(String since) {
    return logged(
        "command_type = 'Query' AND event_time >= ? AND thread_id <> CONNECTION_ID()"
            + " AND CONVERT(argument USING utf8mb4) <> 'SELECT NOW(6)' ORDER BY event_time",
        since);
  }

  @Test
  void aReadSendsItsWaitWithItsFirstQueryInOneRoundTrip() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      replica.pauseApplier();
      long id = create("created");
      String marker = "pipelined-" + id;
      String since = replica.queryString("SELECT NOW(6)");

      Future<ReadResult<String>> pending =
          background.submit(
              binding
                  .context()
                  .wrap(
                      () ->
                          reader.read(
                              c -> {
                                try (PreparedStatement ps =
                                    c.prepareStatement(
                                        "SELECT status FROM orders WHERE id = ? /* "
                                            + marker
                                            + " */")) {
                                  ps.setLong(1, id);
                                  try (ResultSet rs = ps.executeQuery()) {
                                    return rs.next() ? rs.getString(1) : null;
                                  }
                                }
                              })));
      RunningWaits.awaitOne(replica);
      replica.resumeApplier();
      ReadResult<String> read = pending.get(10, TimeUnit.SECONDS);

      assertThat(read.value()).isEqualTo("created");
      assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(read.record().waited().plus(read.record().querying()))
          .as("the round trip of the wait and the query counted once")
          .isLessThanOrEqualTo(read.record().elapsed());
      // The server logs each statement of a text apart; the wait's ends with the ';' after it.
      assertThat(loggedSince(since))
          .filteredOn(sql -> sql.startsWith("SELECT /*+") || sql.contains(marker))
          .satisfiesExactly(
              wait ->
                  assertThat(wait)
                      .startsWith("SELECT /*+ MAX_EXECUTION_TIME(")
                      .contains("WAIT_FOR_EXECUTED_GTID_SET")
                      .endsWith(";"),
              query -> assertThat(query).contains(marker));
    }
  }

  @Test
  void aFirstStatementThatIsNoQueryIsSentAfterAWaitOfItsOwn() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      long id = create("created");
      String marker = "alone-" + id;
      String since = replica.queryString("SELECT NOW(6)");

      ReadResult<String> read =
          reader.read(
              c -> {
                try (Statement s = c.createStatement()) {
                  s.execute(
                      "SHOW SESSION VARIABLES LIKE 'transaction_read_only' /* " + marker + " */");
                }
                return status(c, id);
              });

      assertThat(read.value()).isEqualTo("created");
      assertThat(loggedSince(since))
          .filteredOn(sql -> sql.startsWith("SELECT /*+") || sql.contains(marker))
          .satisfiesExactly(
              wait -> assertThat(wait).contains("WAIT_FOR_EXECUTED_GTID_SET").doesNotEndWith(";"),
              show -> assertThat(show).contains(marker));
    }
  }

  /**
   * A query that swallows the failure its wait's timeout throws still gets no answer from the
   * replica: the read's attempt there is over, and the query runs again on the source.
   */
  @Test
  void rowsReadUnderAWaitThatTimedOutAreNeverHandedOut() throws SQLException {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("lagging");
      ConsistentReader reader = reader(ReadPolicy.FALLBACK_TO_SOURCE);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(400));
      SqlFunction<@Nullable String> swallowing =
          c -> {
            try {
              return status(c, id);
            } catch (SQLException e) {
              return "swallowed: " + e.getMessage();
            }
          };

      ReadResult<@Nullable String> fallback = reader.read(options, swallowing);

      assertThat(fallback.value()).isEqualTo("lagging");
      assertThat(fallback.record().role()).isEqualTo(NodeRole.SOURCE);
      assertRefused(
          Reason.WAIT_TIMEOUT, () -> reader.read(options.withPolicy(ReadPolicy.FAIL), swallowing));
    }
  }

  @Test
  void aQueryWhoseWaitTimesOutNeverAnswersNotFound() throws SQLException {
    try (HikariDataSource pipelining = Pools.replica(replica, db, 2);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = ConsistentReader.builder(pipelining, source).build();
      replica.pauseApplier();
      long id = create("lagging");
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(500));
      ResultSetFunction<@Nullable String> status = rows -> rows.next() ? rows.getString(1) : null;

      ReadResult<@Nullable String> fallback =
          reader.query(options, "SELECT status FROM orders WHERE id = ?", status, id);

      assertThat(fallback.value()).isEqualTo("lagging");
      assertThat(fallback.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertRefused(
          Reason.WAIT_TIMEOUT,
          () ->
              reader.query(
                  options.withPolicy(ReadPolicy.FAIL),
                  "SELECT status FROM orders WHERE id = ?",
                  status,
                  id));
    }
  }

  /**
   * A statement only the source may run is not sent with the replica's wait, which would run it
   * there after the wait: it runs on the source, as a read of {@code read} does.
   */
  @Test
  void aQueryOnlyTheSourceMayRunIsNotSentWithTheReplicasWait() throws SQLException {
    try (HikariDataSource pipelining = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pipelining, ReadOptions.defaults());
      ResultSetFunction<@Nullable String> status = rows -> rows.next() ? rows.getString(1) : null;

      for (String sql :
          List.of(
              "/* tidemark:source */ SELECT status FROM orders WHERE id = ?",
              "SELECT status FROM orders WHERE id = ? FOR SHARE")) {
        replica.pauseApplier();
        long id = create("created");
        ReadOptions options = reader.defaults().requiring(binding.context().gtids());
        CompletableFuture<Void> resume = replica.resumeApplierAfter(Duration.ofMillis(300));
        ReadResult<@Nullable String> read = reader.query(options, sql, status, id);
        resume.join();

        assertThat(read.value()).as(sql).isEqualTo("created");
        assertThat(read.record().role()).as(sql).isEqualTo(NodeRole.SOURCE);
        assertThat(read.record().reason()).as(sql).isEqualTo(Reason.SOURCE_FOR_WRITE);
      }
    }
  }

  /**
   * A read lets its replica connection run several statements of one text; a write that takes the
   * same connection (a replica's pool serves a promoted source's writes) runs one statement per
   * text again, as the driver was configured.
   */
  @Test
  void aConnectionTakenForWritesRunsOneStatementPerTextAgain() throws Exception {
    try (HikariDataSource pool = Pools.replica(topology.source(), db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      CapturingDataSource writes = CapturingDataSource.wrap(pool);
      ConsistentReader reader = ConsistentReader.builder(pool, writes).build();
      reader.read(c -> status(c, 0)); // the connection's first look at its server
      long id = create("created");
      // Written since: the read waits for it, with its query.
      assertThat(reader.read(c -> status(c, id)).value()).isEqualTo("created");
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement()) {
        assertThat(s.execute("SELECT 1; SELECT 2")).as("a read left it so").isTrue();
      }

      try (Connection c = writes.getConnection();
          Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.execute("SELECT 1; SELECT 2"))
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1064));
      }
    }
  }

  /**
   * A read's session runs several statements of a text since a read sent its wait with a query; a
   * text of several that a later read sends (an injection extending a query, say) is refused there
   * and fails on the source, as it would without Tidemark.
   */
  @Test
  void aTextOfSeveralStatementsIsNotRunWhereTidemarkLetTheSessionRunSeveral() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      long id = create("created");
      assertThat(reader.read(c -> status(c, id)).value()).isEqualTo("created");

      assertThatThrownBy(
              () ->
                  reader.read(
                      c -> {
                        try (Statement s = c.createStatement()) {
                          return s.execute("SELECT 1; SET @tidemark_extended = 1");
                        }
                      }))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1064));
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT @tidemark_extended")) {
        rs.next();
        assertThat(rs.getObject(1)).as("the replica's session ran none of it").isNull();
      }
    }
  }

  /**
   * A session that no longer runs several statements of one text (Connector/J stops it after a
   * batch it sent as one text, or on reconnecting) takes the wait and the query for one statement:
   * that read goes on to its policy, and the next one lets the session run several again.
   */
  @Test
  void aSessionTheDriverStoppedRunningSeveralStatementsIsLetAgainByTheNextRead() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      long first = create("first");
      assertThat(reader.read(c -> status(c, first)).record().reason())
          .isEqualTo(Reason.REPLICA_AFTER_WAIT);
      try (Connection c = pool.getConnection()) {
        ((com.mysql.cj.NativeSession) c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getSession())
            .disableMultiQueries();
      }

      long second = create("second");
      ReadResult<String> taken = reader.read(c -> status(c, second));
      long third = create("third");
      ReadResult<String> next = reader.read(c -> status(c, third));

      assertThat(taken.value()).isEqualTo("second");
      assertThat(taken.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(next.value()).isEqualTo("third");
      assertThat(next.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    }
  }

  /** The query's own failure is thrown as the query's, whichever statement of the text it was. */
  @Test
  void aQuerysOwnFailureInTheTextOfItsWaitIsThrownAsItsOwn() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults().withPolicy(ReadPolicy.FAIL));
      create("created");
      String since = replica.queryString("SELECT NOW(6)");

      assertThatThrownBy(() -> reader.read(c -> query(c, "SELECT no_such_column FROM orders")))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1054));
      create("created");
      // Its own statement timer, far shorter than the wait's.
      assertThatThrownBy(
              () ->
                  reader.read(
                      c ->
                          query(
                              c,
                              "SELECT /*+ MAX_EXECUTION_TIME(1) */ COUNT(*)"
                                  + " FROM information_schema.COLUMNS a, information_schema.COLUMNS b")))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3024));
      assertThat(loggedSince(since))
          .as("each was sent with its wait")
          .filteredOn(sql -> sql.contains("WAIT_FOR_EXECUTED_GTID_SET"))
          .hasSize(2)
          .allSatisfy(wait -> assertThat(wait).endsWith(";"));
    }
  }

  /**
   * A query that catches the failure its wait's timeout throws and runs again on the same statement
   * reads nothing: no statement runs on the replica once the wait ended without the token.
   */
  @Test
  void aStatementRunAgainAfterItsWaitTimedOutReadsNothing() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader =
          lookedAt(
              pool,
              ReadOptions.defaults()
                  .withPolicy(ReadPolicy.FAIL)
                  .withTimeout(Duration.ofMillis(300)));
      replica.pauseApplier();
      long id = create("lagging");
      List<String> seen = new ArrayList<>();
      List<SQLException> thrown = new ArrayList<>();

      assertRefused(
          Reason.WAIT_TIMEOUT,
          () ->
              reader.read(
                  c -> {
                    try (Statement s = c.createStatement()) {
                      for (int i = 0; i < 2; i++) {
                        try (ResultSet rs =
                            s.executeQuery("SELECT status FROM orders WHERE id = " + id)) {
                          seen.add(rs.next() ? rs.getString(1) : "not found");
                        } catch (SQLException e) {
                          thrown.add(e);
                        }
                      }
                    }
                    return seen;
                  }));
      assertThat(seen).as("what the query saw on the lagging replica").isEmpty();
      assertThat(thrown).hasSize(2);
    }
  }

  /** The driver's own connection, which reads past Tidemark, is handed out after the wait. */
  @Test
  void theDriversOwnConnectionIsHandedOutAfterTheWait() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      replica.pauseApplier();
      long id = create("created");
      CompletableFuture<Void> resume = replica.resumeApplierAfter(Duration.ofMillis(300));

      ReadResult<@Nullable String> read =
          reader.read(c -> status(c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class), id));
      resume.join();

      assertThat(read.value()).isEqualTo("created");
      assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    }
  }

  /**
   * A driver that prepares statements on the server prepares one statement per text: a prepared
   * query's wait is sent alone before it, not in a text the server would refuse first.
   */
  @Test
  void whereTheDriverPreparesOnTheServerThePreparedQuerysWaitGoesAlone() throws Exception {
    try (HikariDataSource pool = Pools.replica(replica, db, 1, "&useServerPrepStmts=true");
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      long id = create("created");
      String since = replica.queryString("SELECT NOW(6)");

      assertThat(reader.read(c -> status(c, id)).value()).isEqualTo("created");

      // Prepared, then executed: each is logged, as is a text the server refused to prepare.
      List<String> waits =
          logged(
              "event_time >= ? AND thread_id <> CONNECTION_ID()"
                  + " AND CONVERT(argument USING utf8mb4) LIKE '%WAIT_FOR_EXECUTED_GTID_SET%'",
              since);
      assertThat(waits).isNotEmpty().allSatisfy(wait -> assertThat(wait).doesNotContain(";"));
    }
  }

  private static @Nullable Object query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getObject(1) : null;
    }
  }

  @Test
  void aWriteInsideAReplicaReadIsRefusedEvenWhereTheReplicaWouldTakeIt() {
    // read_only alone lets a user with SUPER or CONNECTION_ADMIN write: an errant transaction.
    replica.execute("SET GLOBAL super_read_only = OFF");
    long written = IDS.incrementAndGet();
    try {
      assertAWriteInAReplicaReadFails(written).hasMessageContaining("read-only");
    } finally {
      replica.execute("SET GLOBAL super_read_only = ON");
    }
    assertThat(
            replica.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + written))
        .isEqualTo("0");
  }

  @Test
  void aQueryOfSeveralStatementsEndsWithinTheReadsDeadline() {
    ConsistentReader reader = reader(ReadPolicy.FAIL);
    ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(300));
    long begun = System.nanoTime();

    assertThatThrownBy(
            () ->
                reader.read(
                    options,
                    c -> {
                      for (int i = 0; i < 5; i++) {
                        try (Statement s = c.createStatement()) {
                          s.executeQuery("SELECT SLEEP(0.1)").close();
                        }
                      }
                      return "five statements";
                    }))
        .isInstanceOf(ConsistentReadException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - begun))
        .isLessThan(Duration.ofMillis(300).plus(SLACK));
  }

  @Test
  void pausedApplierWithFailPolicyFailsWithinBudgetAndNeverReadsStale() {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofMillis(1500));
      long started = System.nanoTime();

      assertThatThrownBy(() -> reader.read(options, c -> status(c, id)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.WAIT_TIMEOUT);
                assertThat(e.required()).isEqualTo(binding.context().gtids());
                assertThat(e.replica()).isEqualTo(replica.serverUuid());
                assertThat(e.waited()).isGreaterThan(Duration.ofMillis(1000));
              });
      assertThat(elapsedSince(started)).isLessThan(options.timeout().plus(SLACK));
    }
  }

  @Test
  void fallbackIsReservedItsShareOfTheBudgetSoTheReadEndsWithinItsDeadline() throws SQLException {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      ReadOptions options = ReadOptions.defaults().withTimeout(Duration.ofMillis(1500));
      ConsistentReader reader =
          ConsistentReader.builder(replicaPool, source)
              .defaults(options)
              .fallbackReserve(Duration.ofMillis(400))
              .build();
      long started = System.nanoTime();

      ReadResult<String> read = reader.read(c -> status(c, id));

      assertThat(read.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      // The attempt ends at 1 100 ms; on a busy host the server's answer may come as late as the
      // socket cut, 50 ms past it.
      assertThat(read.record().waited())
          .isGreaterThan(Duration.ofMillis(1000))
          .isLessThan(Duration.ofMillis(1100).plus(SLACK));
      assertThat(elapsedSince(started)).isLessThan(options.timeout().plus(SLACK));
    }
  }

  @Test
  void budgetsOfZeroAFractionAndSecondsAreEachKept() {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      String required = binding.context().gtids().toString();
      for (Duration budget :
          List.of(Duration.ZERO, Duration.ofMillis(300), Duration.ofSeconds(2))) {
        ConsistentReader reader = reader(ReadPolicy.FAIL);
        ReadOptions options = reader.defaults().withTimeout(budget);
        int waitsBefore = sentWaits(required).size();
        long started = System.nanoTime();
        assertThatThrownBy(() -> reader.read(options, c -> status(c, id)))
            .isInstanceOfSatisfying(
                ConsistentReadException.class,
                e ->
                    assertThat(e.reason())
                        .isEqualTo(
                            budget.isZero() ? Reason.BUDGET_EXHAUSTED : Reason.WAIT_TIMEOUT));
        Duration elapsed = elapsedSince(started);
        if (budget.isZero()) {
          assertThat(sentWaits(required)).as("no budget, no wait sent").hasSize(waitsBefore);
        }
        assertThat(elapsed).as("budget %s", budget).isLessThan(budget.plus(SLACK));
        // The wait ends a socket grace before the deadline, so the socket never cuts it first.
        assertThat(elapsed)
            .as("budget %s is used, not cut short", budget)
            .isGreaterThanOrEqualTo(
                budget
                    .minus(ConsistentReader.Builder.DEFAULT_QUERY_RESERVE)
                    .minusMillis(SocketTimeout.SOCKET_GRACE_MILLIS));
      }
    }
  }

  @Test
  void zeroBudgetStillServesAReplicaThatAlreadyHasTheToken() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("created");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));

      ReadResult<String> read =
          reader(ReadPolicy.FAIL)
              .read(
                  ReadOptions.defaults().withPolicy(ReadPolicy.FAIL).withTimeout(Duration.ZERO),
                  c -> status(c, id));

      assertThat(read.value()).isEqualTo("created");
      // Caught up when the replica's executed set came with the connection, else checked at once.
      assertThat(read.record().reason()).isIn(Reason.REPLICA_AFTER_WAIT, Reason.REPLICA_CAUGHT_UP);
    }
  }

  @Test
  void delayedReplicaServesEveryReadFreshWithinFourSeconds() throws Exception {
    replica.delayApplier(Duration.ofSeconds(1));
    // Each read waits about 2 s: ten clients of five reads each keep this test to about 10 s.
    ExecutorService clients = Executors.newFixedThreadPool(10);
    try {
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      List<Future<List<ExecutionRecord>>> runs = new ArrayList<>();
      for (int client = 0; client < 10; client++) {
        runs.add(clients.submit(() -> writeThenRead(reader, 5)));
      }
      List<ExecutionRecord> records = new ArrayList<>();
      for (Future<List<ExecutionRecord>> run : runs) {
        records.addAll(run.get(120, TimeUnit.SECONDS));
      }
      assertThat(records).hasSize(50);
      long[] elapsed = records.stream().mapToLong(r -> r.elapsed().toMillis()).sorted().toArray();
      System.out.printf(
          "figures: reads right after writes on a replica delayed 1 s: p50 %d ms, max %d ms%n",
          elapsed[elapsed.length / 2], elapsed[elapsed.length - 1]);
      assertThat(records)
          .allSatisfy(
              r -> {
                assertThat(r.role()).isEqualTo(NodeRole.REPLICA);
                assertThat(r.elapsed()).isLessThan(Duration.ofSeconds(4).plus(SLACK));
              });
    } finally {
      clients.shutdownNow();
      replica.delayApplier(Duration.ZERO);
    }
  }

  private List<ExecutionRecord> writeThenRead(ConsistentReader reader, int times)
      throws SQLException {
    List<ExecutionRecord> records = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long id = create("fresh-" + i);
        ReadResult<String> read =
            // 8.0.15 applies a 1 s delay about 2 s after the commit, now and then 3 s.
            reader.read(reader.defaults().withTimeout(Duration.ofSeconds(4)), c -> status(c, id));
        assertThat(read.value()).isEqualTo("fresh-" + i);
        records.add(read.record());
      }
    }
    return records;
  }

  @Test
  void snapshotLeftOpenOnAPooledConnectionIsEndedBeforeTheRead() throws Exception {
    try (HikariDataSource onePool = Pools.plain(replica, db, 1)) {
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long id = create("old");
        topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
        leaveATransactionOpen(onePool, "START TRANSACTION WITH CONSISTENT SNAPSHOT", id, "old");
        update(id, "new");
        topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
        try (Connection c = onePool.getConnection()) {
          assertThat(status(c, id))
              .as("negative control: the snapshot left open shows the old row")
              .isEqualTo("old");
        }

        ReadResult<String> read =
            ConsistentReader.builder(onePool, source)
                .build()
                .read(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL), c -> status(c, id));

        assertThat(read.value()).isEqualTo("new");
        assertThat(read.record().role()).isEqualTo(NodeRole.REPLICA);
      }
    }
  }

  @Test
  void killQueryOnTheWaitingConnectionEndsTheReadByPolicy() throws Exception {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Future<ReadResult<String>> read =
          readANewRowInBackground(ReadPolicy.FAIL, Duration.ofSeconds(5));
      String waiting = RunningWaits.awaitOne(replica);
      long started = System.nanoTime();
      replica.execute("KILL QUERY " + waiting);

      assertThatThrownBy(() -> read.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(ConsistentReadException.class)
          .cause()
          .satisfies(
              e ->
                  assertThat(((ConsistentReadException) e).reason())
                      .isEqualTo(Reason.REPLICA_ERROR));
      assertThat(elapsedSince(started)).isLessThan(Duration.ofSeconds(1));
    }
  }

  @Test
  void retryPolicyWaitsAgainAfterAFailedWaitAndServesFromTheReplica() throws Exception {
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Duration timeout = Duration.ofSeconds(6);
      Future<ReadResult<String>> read = readANewRowInBackground(ReadPolicy.RETRY, timeout);
      replica.execute("KILL QUERY " + RunningWaits.awaitOne(replica));
      replica.resumeApplier();

      ReadResult<String> result = read.get(10, TimeUnit.SECONDS);
      assertThat(result.value()).isEqualTo("created");
      assertThat(result.record().role()).isEqualTo(NodeRole.REPLICA);
      assertThat(result.record().elapsed()).isLessThan(timeout);
    }
  }

  @Test
  void tokenWithAnUnknownSourceUuidIsRefusedBeforeAnyServerSeesIt() {
    String forged = "0badf00d-0000-4000-8000-000000000001";
    GtidSet required = GtidSet.parse(forged + ":1-3");

    assertRefused(
        Reason.TOKEN_REJECTED,
        () ->
            reader(ReadPolicy.FALLBACK_TO_SOURCE)
                .read(ReadOptions.defaults().requiring(required), c -> status(c, 1)));
    assertThat(sentWaits(forged)).isEmpty();
  }

  @Test
  void tokenWithAGnoAheadOfTheSourceIsRefusedByTheSourceAndNothingIsRead() {
    String ahead = topology.source().serverUuid() + ":1-1000000000";
    ReadOptions options =
        ReadOptions.defaults()
            .requiring(GtidSet.parse(ahead))
            .withPolicy(ReadPolicy.FALLBACK_TO_SOURCE)
            .withTimeout(Duration.ofMillis(300));
    // The replica's wait goes with the query's statement, which the server then skips: the query
    // may be called there, but no statement of it returns.
    AtomicLong answered = new AtomicLong();
    long started = System.nanoTime();

    assertRefused(
        Reason.TOKEN_NOT_ON_SOURCE,
        () ->
            reader(ReadPolicy.FALLBACK_TO_SOURCE)
                .read(
                    options,
                    c -> {
                      String status = status(c, 1);
                      answered.incrementAndGet();
                      return status;
                    }));
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isLessThan(options.timeout().plus(Duration.ofMillis(500)));
    assertThat(answered).hasValue(0);
  }

  @Test
  void rowOlderThanTheRequiredRevisionIsNeverReturned() throws SQLException {
    long id;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      id = create("created");
    }
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    replica.pauseApplier();
    update(id, "paid");
    ReadOptions needsRevision2 = ReadOptions.defaults().requiring(GtidSet.EMPTY).withMinRevision(2);

    ReadResult<Long> fallback =
        reader(ReadPolicy.FALLBACK_TO_SOURCE).read(needsRevision2, c -> revision(c, id), r -> r);
    assertThat(fallback.value()).isEqualTo(2);
    assertThat(fallback.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);

    assertRefused(
        Reason.REVISION_NOT_REACHED,
        () ->
            reader(ReadPolicy.FAIL)
                .read(needsRevision2.withPolicy(ReadPolicy.FAIL), c -> revision(c, id), r -> r));
  }

  @Test
  void manyReadsWaitingForOneWriteShareOneServerWait() throws Exception {
    replica.pauseApplier();
    int readers = 100;
    ExecutorService clients = Executors.newFixedThreadPool(readers);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = create("shared");
      String required = binding.context().gtids().toString();
      ConsistentReader reader = reader(ReadPolicy.FAIL);
      ReadOptions options = reader.defaults().withTimeout(Duration.ofSeconds(8));
      List<Future<ReadResult<String>>> reads = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        reads.add(
            clients.submit(binding.context().wrap(() -> reader.read(options, c -> status(c, id)))));
      }
      RunningWaits.awaitOne(replica);
      replica.resumeApplier();

      for (Future<ReadResult<String>> read : reads) {
        assertThat(read.get(20, TimeUnit.SECONDS).value()).isEqualTo("shared");
      }
      assertThat(sentWaits(required)).hasSize(1);
    } finally {
      clients.shutdownNow();
    }
  }

  /**
   * Reads after writes, each with the token of its own write, waiting in the order of their writes:
   * one waits on the replica, the others in memory behind it, and the replica's executed set the
   * wait returns with lets go all it covers.
   */
  @Test
  void readsWaitingEachForItsOwnWriteHoldOneReplicaConnectionBetweenThem() throws Exception {
    int readers = 6;
    ExecutorService clients = Executors.newFixedThreadPool(readers);
    try (HikariDataSource pool = Pools.replica(replica, db, 4)) {
      ConsistentReader reader = lookedAt(pool, ReadOptions.defaults());
      replica.pauseApplier();
      List<Future<ReadResult<String>>> reads = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
          long id = create("own-" + i);
          ids.add(id);
          ReadOptions options =
              reader
                  .defaults()
                  .requiring(binding.context().gtids())
                  .withTimeout(Duration.ofSeconds(8));
          reads.add(clients.submit(() -> reader.read(options, c -> status(c, id))));
        }
        Thread.sleep(20);
      }
      assertReadsWaitingInTurnHeldOneConnection(pool, reads, "own-", Duration.ofSeconds(20));
    } finally {
      clients.shutdownNow();
    }
  }

  /**
   * Writes a row in this thread's context and starts its read on another thread, the context handed
   * over, leaving this thread free to act on the replica while the read waits.
   */
  private Future<ReadResult<String>> readANewRowInBackground(ReadPolicy policy, Duration timeout) {
    long id = create("created");
    ConsistentReader reader = reader(policy);
    ReadOptions options = reader.defaults().withTimeout(timeout);
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    assertThat(context).isNotNull();
    return background.submit(context.wrap(() -> reader.read(options, c -> status(c, id))));
  }

  /**
   * A reader over {@code pool} with {@code defaults}, after a first read that had its connection
   * look at the replica, so that the next reads' waits travel with their queries.
   */
  private static ConsistentReader lookedAt(HikariDataSource pool, ReadOptions defaults)
      throws SQLException {
    ConsistentReader reader = ConsistentReader.builder(pool, source).defaults(defaults).build();
    reader.read(c -> status(c, 0));
    return reader;
  }

  private static void update(long id, String status) {
    topology
        .source()
        .execute(
            "UPDATE `"
                + db
                + "`.orders SET status = '"
                + status
                + "', revision = revision + 1 WHERE id = "
                + id);
  }

  private static long revision(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT revision FROM orders WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : Long.MIN_VALUE;
      }
    }
  }

  /** The waits the replica received whose text contains {@code fragment} (SQL LIKE). */
  private static List<String> sentWaits(String fragment) {
    return logged(
        "command_type = 'Query' AND argument LIKE"
            + " 'SELECT /*+ MAX_EXECUTION_TIME(%) */ WAIT_FOR_EXECUTED_GTID_SET(%'"
            + " AND CONVERT(argument USING utf8mb4) LIKE ?",
        "%" + fragment.replace("\n", "%") + "%");
  }

  /** The statements the replica's general log holds that meet {@code condition} (one {@code ?}). */
  private static List<String> logged(String condition, String parameter) {
    List<String> statements = new ArrayList<>();
    try (Connection c = replica.openConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE "
                    + condition)) {
      ps.setString(1, parameter);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          statements.add(rs.getString(1));
        }
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    return statements;
  }

  private static Duration elapsedSince(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }
}

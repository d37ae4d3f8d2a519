package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kind of commit yields a captured GTID set that the replica's wait honours: the row is there
 * once the replica has executed the captured set, and not before (checked with the applier paused,
 * so a capture that missed the write would be seen).
 */
@ExtendWith(TestkitExtension.class)
class CaptureIT {

  private static MySqlTopology topology;
  private static String db;
  private static HikariDataSource trackingPool;
  private static HikariDataSource plainPool;
  private static int nextId;

  @BeforeAll
  static void createPools(MySqlTopology shared) {
    topology = shared;
    db = Rows.createTable(topology, "capture");
    topology
        .source()
        .execute(
            "CREATE PROCEDURE `"
                + db
                + "`.add_row(IN k INT) BEGIN INSERT INTO t VALUES (k, 'p'); SELECT k; END");
    // Declared deterministic only so that the binary log accepts it; what matters is its write.
    topology
        .source()
        .execute(
            "CREATE FUNCTION `"
                + db
                + "`.add_row_f(k INT) RETURNS INT DETERMINISTIC"
                + " BEGIN INSERT INTO t VALUES (k, 'f'); RETURN k; END");
    trackingPool = Pools.tracking(topology.source(), db, 2);
    plainPool = Pools.plain(topology.source(), db, 2);
  }

  @AfterAll
  static void closePools() {
    trackingPool.close();
    plainPool.close();
  }

  /** A kind of commit: the work that makes it and how many rows that work writes. */
  private record Commit(String kind, Work work, int rows) {
    @Override
    public String toString() {
      return kind;
    }
  }

  static Stream<Arguments> commits() {
    List<Commit> commits =
        List.of(
            new Commit(
                "explicit commit",
                c -> {
                  c.setAutoCommit(false);
                  insert(c, ++nextId);
                  insert(c, ++nextId);
                  c.commit();
                },
                2),
            new Commit("autocommit statement", c -> insert(c, ++nextId), 1),
            new Commit(
                "a procedure that writes, called through executeQuery",
                c -> selectOneRow(c.prepareCall("{call add_row(?)}")),
                1),
            new Commit(
                "a writing function selected through executeQuery",
                c -> selectOneRow(c.prepareStatement("SELECT add_row_f(?)")),
                1),
            new Commit(
                "batch",
                c -> {
                  try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 'b')")) {
                    for (int i = 0; i < 3; i++) {
                      ps.setInt(1, ++nextId);
                      ps.addBatch();
                    }
                    ps.executeBatch();
                  }
                },
                3),
            new Commit(
                "commit sent as SQL text",
                c -> {
                  c.setAutoCommit(false);
                  insert(c, ++nextId);
                  execute(c, "COMMIT");
                },
                1),
            new Commit(
                "DDL inside an open transaction commits it",
                c -> {
                  c.setAutoCommit(false);
                  int id = ++nextId;
                  insert(c, id);
                  execute(c, "CREATE TABLE implicit_" + id + " (id INT PRIMARY KEY)");
                  c.rollback();
                },
                1),
            new Commit(
                "several commits on one connection",
                c -> {
                  insert(c, ++nextId);
                  c.setAutoCommit(false);
                  insert(c, ++nextId);
                  c.commit();
                  insert(c, ++nextId);
                  c.setAutoCommit(true);
                },
                3));
    return commits.stream()
        .flatMap(commit -> Stream.of(true, false).map(tracking -> Arguments.of(commit, tracking)));
  }

  @ParameterizedTest(name = "{0}, tracking {1}")
  @MethodSource("commits")
  void everyKindOfCommitIsCaptured(Commit commit, boolean tracking) throws Exception {
    assertCaptured(tracking, commit.work(), commit.rows());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void ddlWithImplicitCommitIsCaptured(boolean tracking) throws Exception {
    String table = "ddl_" + (tracking ? "tracked" : "queried");
    GtidSet captured =
        capture(tracking, c -> execute(c, "CREATE TABLE " + table + " (id INT PRIMARY KEY)"));
    assertThat(captured.isEmpty()).isFalse();
    assertThat(topology.replica().awaitGtidSet(captured.toString(), Duration.ofSeconds(10)))
        .isTrue();
    assertThat(
            topology
                .replica()
                .queryString(
                    "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                        + db
                        + "' AND table_name = '"
                        + table
                        + "'"))
        .isEqualTo("1");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void readOnlyTransactionCapturesNothing(boolean tracking) throws Exception {
    GtidSet captured =
        capture(
            tracking,
            c -> {
              c.setReadOnly(true);
              c.setAutoCommit(false);
              c.createStatement().executeQuery("SELECT COUNT(*) FROM t").close();
              c.commit();
              c.setReadOnly(false);
            });
    // Without tracking only the read-only mark tells that the query wrote nothing.
    assertThat(captured.isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void rollbackCapturesNothingWithTrackingAndASupersetWithout(boolean tracking) throws Exception {
    GtidSet captured =
        capture(
            tracking,
            c -> {
              c.setAutoCommit(false);
              insert(c, ++nextId);
              c.rollback();
            });
    if (tracking) {
      assertThat(captured.isEmpty()).isTrue();
    } else {
      // Without tracking a rollback cannot rule out an implicit commit (DDL, COMMIT as text).
      assertThat(GtidSet.parse(topology.source().gtidExecuted()).containsAll(captured)).isTrue();
      assertThat(captured.isEmpty()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void trackedCaptureTakesTheServersReportAndQueriedCaptureAsksTheServer(boolean tracking)
      throws Exception {
    CapturingDataSource source = CapturingDataSource.wrap(tracking ? trackingPool : plainPool);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = source.getConnection()) {
        insert(c, ++nextId);
      }
      assertThat(binding.context().isDirty()).isFalse();
    }
    CapturingDataSource.Stats stats = source.stats();
    assertThat(stats.failed()).isZero();
    if (tracking) {
      assertThat(stats.tracked()).isEqualTo(1);
      assertThat(stats.queried()).isZero();
    } else {
      assertThat(stats.tracked()).isZero();
      assertThat(stats.queried()).isEqualTo(1);
    }
  }

  private interface Work {
    void run(Connection connection) throws SQLException;
  }

  private static void assertCaptured(boolean tracking, Work work, int rows) throws Exception {
    MySqlNode replica = topology.replica();
    int firstId = nextId + 1;
    replica.pauseApplier();
    GtidSet captured;
    try {
      GtidSet before = GtidSet.parse(topology.source().gtidExecuted());
      captured = capture(tracking, work);
      GtidSet committed = GtidSet.parse(topology.source().gtidExecuted()).subtract(before);
      if (tracking) {
        assertThat(captured).as("exactly the GTIDs the work committed").isEqualTo(committed);
      } else {
        assertThat(captured.containsAll(committed)).as("every GTID the work committed").isTrue();
      }
      assertThat(captured.isEmpty()).as("captured a GTID").isFalse();
      assertThat(replica.awaitGtidSet(captured.toString(), Duration.ofMillis(1)))
          .as("replica paused: the captured set is not executed yet")
          .isFalse();
    } finally {
      replica.resumeApplier();
    }
    assertThat(replica.awaitGtidSet(captured.toString(), Duration.ofSeconds(10))).isTrue();
    String count =
        replica.queryString(
            "SELECT COUNT(*) FROM `" + db + "`.t WHERE id BETWEEN " + firstId + " AND " + nextId);
    assertThat(count).isEqualTo(Integer.toString(rows));
  }

  private static GtidSet capture(boolean tracking, Work work) throws Exception {
    CapturingDataSource source = CapturingDataSource.wrap(tracking ? trackingPool : plainPool);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = source.getConnection()) {
        work.run(c);
      }
      assertThat(binding.context().isDirty()).isFalse();
      return binding.context().gtids();
    }
  }

  /** Runs a statement that writes {@code ++nextId} and answers one row, closing it. */
  private static void selectOneRow(PreparedStatement statement) throws SQLException {
    try (statement) {
      statement.setInt(1, ++nextId);
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).isTrue();
      }
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static void insert(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 'v')")) {
      ps.setInt(1, id);
      ps.executeUpdate();
    }
  }
}

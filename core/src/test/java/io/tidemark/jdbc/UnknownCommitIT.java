package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.FaultLink.Direction;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write whose commit reached the source but whose answer never came back (the link to the source
 * drops the answer, then resets): the application gets a {@link CommitOutcomeUnknownException}, not
 * a plain connection error it would take for a failure, and the context turns dirty, so the token
 * of the answer covers the write that may have committed. A connection lost before anything was
 * written is the driver's connection failure.
 */
@ExtendWith(TestkitExtension.class)
class UnknownCommitIT {

  private static final String LINK = "unknown-commit";

  private static MySqlNode source;
  private static String db;
  private static int nextId;

  @BeforeAll
  static void createTable(MySqlTopology topology) {
    source = topology.source();
    db = topology.createDatabase("unknown_commit");
    source.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
  }

  @AfterEach
  void heal() {
    source.link(LINK).heal();
  }

  @AfterAll
  static void closeLink() {
    source.link(LINK).close();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aCommitWhoseAnswerIsLostHasAnUnknownOutcome(boolean tracking) throws Exception {
    int id = ++nextId;
    try (HikariDataSource pool = pool(tracking);
        ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      CapturingDataSource capturing = CapturingDataSource.wrap(pool);
      Connection connection = capturing.getConnection();
      connection.setAutoCommit(false);
      insert(connection, id);

      Throwable failure = failureOnceCommitted(id, () -> connection.commit());
      connection.close();

      assertThat(failure)
          .isInstanceOf(CommitOutcomeUnknownException.class)
          .hasMessageContaining("may have committed");
      assertThat(((SQLException) failure).getSQLState()).isEqualTo("08007");
      assertThat(failure.getCause()).isInstanceOf(SQLException.class);
      assertThat(unit.context().isDirty()).isTrue();
      assertThat(unit.context().dirtyBecause()).contains("outcome is unknown");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void anAutocommitWriteWhoseAnswerIsLostHasAnUnknownOutcome(boolean tracking) throws Exception {
    int id = ++nextId;
    try (HikariDataSource pool = pool(tracking);
        ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      CapturingDataSource capturing = CapturingDataSource.wrap(pool);
      try (Connection connection = capturing.getConnection()) {
        connection.createStatement().execute("SELECT 1");

        Throwable failure = failureOnceCommitted(id, () -> insert(connection, id));

        assertThat(failure).isInstanceOf(CommitOutcomeUnknownException.class);
      }
      assertThat(unit.context().isDirty()).isTrue();
    }
  }

  @Test
  void aStatementLostInsideATransactionIsAPlainFailureSinceNothingCommitted() throws Exception {
    int id = ++nextId;
    try (HikariDataSource pool = pool(true);
        ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      CapturingDataSource capturing = CapturingDataSource.wrap(pool);
      try (Connection connection = capturing.getConnection()) {
        connection.setAutoCommit(false);
        insert(connection, id);
        FaultLink link = source.link(LINK);
        link.drop(Direction.DOWNSTREAM);
        CompletableFuture<Void> second = inBackground(() -> insert(connection, id + 1_000_000));
        link.resetConnections();
        link.heal();

        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
            .hasCauseInstanceOf(SQLException.class)
            .cause()
            .isNotInstanceOf(CommitOutcomeUnknownException.class);
      }
    }
    assertThat(source.queryString("SELECT COUNT(*) FROM `" + db + "`.t WHERE id = " + id))
        .as("the open transaction was rolled back with its connection")
        .isEqualTo("0");
  }

  @Test
  void aConnectionLostBeforeItsFirstStatementIsAConnectionFailure() throws Exception {
    try (HikariDataSource pool = pool(true);
        ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      pool.getConnection().close();
      // Back in the pool within Hikari's half-second without a validation, so Tidemark's session
      // set-up is the first to use the connection after the reset.
      source.link(LINK).resetConnections();

      assertThatThrownBy(() -> CapturingDataSource.wrap(pool).getConnection())
          .as("the driver's error, not a connection handed out dead")
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).startsWith("08"));
    }
  }

  private interface Write {
    void run() throws SQLException;
  }

  /**
   * Runs {@code write} with the answers from the source dropped, waits until its row is on the
   * source, then resets the link: the driver learns of the lost connection only after the commit.
   */
  private static Throwable failureOnceCommitted(int id, Write write) throws Exception {
    FaultLink link = source.link(LINK);
    link.drop(Direction.DOWNSTREAM);
    CompletableFuture<Void> running = inBackground(write);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!"1"
        .equals(source.queryString("SELECT COUNT(*) FROM `" + db + "`.t WHERE id = " + id))) {
      assertThat(System.nanoTime()).as("the write reached the source").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    link.resetConnections();
    try {
      running.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } finally {
      link.heal();
    }
    throw new AssertionError("the write did not fail once its connection was reset");
  }

  /** {@code write} run on another thread; its failure is the cause of the future's. */
  private static CompletableFuture<Void> inBackground(Write write) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            write.run();
          } catch (SQLException e) {
            throw new CompletionException(e);
          }
        });
  }

  private static HikariDataSource pool(boolean tracking) {
    HikariConfig config = new HikariConfig();
    // Local session state: the driver would otherwise ask the server before each write whether
    // the session is read-only, and with that answer lost never send the write.
    config.setJdbcUrl(
        source.jdbcUrlThrough(LINK, db)
            + "&useLocalSessionState=true"
            + (tracking ? "&trackSessionState=true" : ""));
    config.setUsername(source.user());
    config.setPassword(source.password());
    config.setMaximumPoolSize(1);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(Duration.ofSeconds(5).toMillis());
    config.setPoolName("unknown-commit");
    return new HikariDataSource(config);
  }

  private static void insert(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
      ps.setInt(1, id);
      ps.executeUpdate();
    }
  }
}

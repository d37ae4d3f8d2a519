package io.tidemark.jdbc;

import static io.tidemark.jdbc.ReadPathContract.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.Closing;
import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.internal.Failures;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A write whose context has a deadline (a request's) ends by it on PostgreSQL: one the primary
 * still runs fails as a lost connection before its commit, one that commits as it runs is of
 * unknown outcome, and one waiting for a connection of a busy pool is refused, each within the
 * deadline and its floor rather than when the server or the pool lets go. A write whose session the
 * primary ends while it runs (its postmaster dies, it is shut down, an administrator terminates the
 * session) lost its connection alike: the server says so with SQLState {@code 57P01}, not class
 * {@code 08}, and left unrecognised such a write reached the client as an untyped error.
 */
class PostgresWriteDeadlineIT {

  private static final Duration DEADLINE = Duration.ofMillis(500);

  /** The statement floor and a loaded 2-core machine's scheduling. */
  private static final Duration SLACK = Duration.ofMillis(300);

  private static PostgresTopology topology;
  private static PostgresOrders orders;
  private static HikariDataSource pool;
  private static CapturingDataSource source;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(1).start();
    orders = new PostgresOrders(topology);
    pool = orders.pool(topology.primary());
    source = CapturingDataSource.wrap(pool);
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeAll(pool, topology);
  }

  @Test
  void aStatementStillRunningAtTheDeadlineFailsAsALostConnectionAndNothingCommits()
      throws SQLException {
    long id = PostgresOrders.nextId();
    long started;
    try (ConsistencyContext.Binding request = withDeadline();
        Connection connection = source.getConnection()) {
      connection.setAutoCommit(false);
      insert(connection, id, "SELECT ?, 'new', 1");
      started = System.nanoTime();
      assertThatThrownBy(
              () -> {
                try (Statement s = connection.createStatement()) {
                  s.execute("SELECT pg_sleep(3)");
                }
              })
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> assertThat(Failures.isConnectionFailure(e)).as(e.toString()).isTrue());
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(SLACK));
      connection.rollback();
    }
    try (Connection c = pool.getConnection()) {
      assertThat(status(c, id)).as("never committed").isNull();
    }
  }

  @Test
  void anAutocommitWriteCutAtTheDeadlineIsOfUnknownOutcome() throws SQLException {
    long id = PostgresOrders.nextId();
    try (ConsistencyContext.Binding request = withDeadline();
        Connection connection = source.getConnection()) {
      long started = System.nanoTime();

      assertThatThrownBy(() -> insert(connection, id, "SELECT ?, 'new', 1 FROM pg_sleep(2)"))
          .isInstanceOf(CommitOutcomeUnknownException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(SLACK));
    }
  }

  @Test
  void aWriteWaitingForABusyPoolIsRefusedAtTheDeadline() throws SQLException {
    List<Connection> held = new ArrayList<>();
    try {
      for (int i = 0; i < pool.getMaximumPoolSize(); i++) {
        held.add(pool.getConnection());
      }
      try (ConsistencyContext.Binding request = withDeadline()) {
        long started = System.nanoTime();

        assertThatThrownBy(() -> source.getConnection().close())
            .isInstanceOf(SQLTransientConnectionException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(SLACK));
      }
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
  }

  @Test
  void aWriteBegunAfterTheDeadlineRunsAsWithoutOneAndIsCaptured() throws SQLException {
    long id = PostgresOrders.nextId();
    // As a task the request handed its context to, running once the request's time is up.
    try (ConsistencyContext.Binding task =
            ConsistencyContext.create(
                    GtidSet.EMPTY, Deadline.after(Duration.ZERO, Ticker.systemTicker()))
                .attach();
        Connection connection = source.getConnection()) {
      insert(connection, id, "SELECT ?, 'new', 1 FROM pg_sleep(0.1)");

      assertThat(task.context().gtids().isEmpty()).as("captured into the context").isFalse();
    }
    try (Connection c = pool.getConnection()) {
      assertThat(status(c, id)).as("committed, not refused").isEqualTo("new");
    }
  }

  @Test
  void anAutocommitWriteWhoseSessionIsTerminatedIsOfUnknownOutcome() throws Exception {
    long id = PostgresOrders.nextId();
    try (ConsistencyContext.Binding request = ConsistencyContext.open();
        Connection connection = source.getConnection()) {
      Throwable failure = terminatedWhileBlocked(connection, id);

      assertThat(failure).isInstanceOf(CommitOutcomeUnknownException.class);
      assertThat(((SQLException) failure.getCause()).getSQLState())
          .as("the server's code for a session it terminates")
          .isEqualTo("57P01");
    }
  }

  @Test
  void aTransactionWhoseSessionIsTerminatedFailsAsALostConnectionAndNothingCommits()
      throws Exception {
    long id = PostgresOrders.nextId();
    try (ConsistencyContext.Binding request = ConsistencyContext.open();
        Connection connection = source.getConnection()) {
      connection.setAutoCommit(false);
      Throwable failure = terminatedWhileBlocked(connection, id);

      assertThat(failure)
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> assertThat(Failures.isConnectionFailure(e)).as(e.toString()).isTrue());
      // The server ended the transaction with the session: a rollback has nothing left to fail.
      connection.rollback();
    }
    try (Connection c = pool.getConnection()) {
      assertThat(status(c, id)).as("never committed").isNull();
    }
  }

  /**
   * Runs an insert of {@code id} on {@code connection} that waits for another transaction's insert
   * of the same key, terminates its session while it waits, and returns what the insert threw.
   */
  private static Throwable terminatedWhileBlocked(Connection connection, long id) throws Exception {
    int pid;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      pid = rs.getInt(1);
    }
    try (Connection blocker = pool.getConnection()) {
      blocker.setAutoCommit(false);
      insert(blocker, id, "SELECT ?, 'new', 1");
      CompletableFuture<Void> blocked =
          CompletableFuture.runAsync(
              () -> {
                try {
                  insert(connection, id, "SELECT ?, 'new', 1");
                } catch (SQLException e) {
                  throw new CompletionException(e);
                }
              });
      PostgresOrders.awaitTrue(
          () -> waitingOnALock(pid), Duration.ofSeconds(15), "the insert waits for the lock");
      orders.onPrimary("SELECT pg_terminate_backend(" + pid + ")");
      Throwable failure = catchThrowable(() -> blocked.get(30, TimeUnit.SECONDS));
      blocker.rollback();
      return failure.getCause();
    }
  }

  private static boolean waitingOnALock(int pid) {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
      s.setInt(1, pid);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && "Lock".equals(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ConsistencyContext.Binding withDeadline() {
    return ConsistencyContext.create(GtidSet.EMPTY, Deadline.after(DEADLINE, Ticker.systemTicker()))
        .attach();
  }

  private static void insert(Connection connection, long id, String select) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO orders (id, status, revision) " + select)) {
      insert.setLong(1, id);
      insert.executeUpdate();
    }
  }
}

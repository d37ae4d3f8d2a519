package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.internal.ConnectionFailures;
import io.tidemark.testkit.PostgresTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A write whose session the primary ends while it runs (as when its postmaster dies, the server is
 * shut down, or an administrator terminates it) lost its connection like one whose socket failed:
 * in autocommit its outcome is unknown, in a transaction the transaction is gone. The server says
 * so with SQLState {@code 57P01}, not class {@code 08}; left unrecognised, such a write reached the
 * client as an untyped error.
 */
class PostgresTerminatedSessionIT {

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
  static void stop() {
    if (pool != null) {
      pool.close();
    }
    if (topology != null) {
      topology.close();
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
              e -> assertThat(ConnectionFailures.isConnectionFailure(e)).as(e.toString()).isTrue());
      // The server ended the transaction with the session: a rollback has nothing left to fail.
      connection.rollback();
    }
    try (Connection c = pool.getConnection()) {
      assertThat(PostgresOrders.status(c, id)).as("never committed").isNull();
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
      insert(blocker, id);
      CompletableFuture<Void> blocked =
          CompletableFuture.runAsync(
              () -> {
                try {
                  insert(connection, id);
                } catch (SQLException e) {
                  throw new CompletionException(e);
                }
              });
      awaitWaitingOnALock(pid);
      orders.onPrimary("SELECT pg_terminate_backend(" + pid + ")");
      Throwable failure = catchThrowable(() -> blocked.get(30, TimeUnit.SECONDS));
      blocker.rollback();
      return failure.getCause();
    }
  }

  private static void awaitWaitingOnALock(int pid) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (true) {
      try (Connection c = pool.getConnection();
          PreparedStatement s =
              c.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
        s.setInt(1, pid);
        try (ResultSet rs = s.executeQuery()) {
          if (rs.next() && "Lock".equals(rs.getString(1))) {
            return;
          }
        }
      }
      assertThat(System.nanoTime()).as("the insert waits for the lock").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static void insert(Connection connection, long id) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO orders (id, status, revision) VALUES (?, 'new', 1)")) {
      insert.setLong(1, id);
      insert.executeUpdate();
    }
  }
}

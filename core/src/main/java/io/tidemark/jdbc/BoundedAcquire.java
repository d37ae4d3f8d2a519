package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Takes a connection from a pool within a time limit. Pools bound {@code getConnection()} only by
 * their own connection timeout (seconds, typically), and validating a pooled connection to a frozen
 * server blocks for as long; a read must not. The connection is asked for on a helper thread; one
 * that arrives after the limit is closed, back into its pool.
 */
final class BoundedAcquire {

  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService ACQUIRERS =
      Executors.newCachedThreadPool(
          task -> {
            Thread t = new Thread(task, "tidemark-acquire-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });

  private BoundedAcquire() {}

  /**
   * @throws SQLTransientConnectionException when no connection came within {@code timeoutNanos}
   * @throws SQLException when the pool failed
   */
  static Connection connection(DataSource pool, long timeoutNanos) throws SQLException {
    CompletableFuture<Connection> pending =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return pool.getConnection();
              } catch (SQLException e) {
                throw new CompletionException(e);
              }
            },
            ACQUIRERS);
    try {
      return pending.get(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      pending.thenAccept(BoundedAcquire::closeQuietly);
      throw new SQLTransientConnectionException(
          "no connection within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", "08001");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      if (cause instanceof SQLException sql) {
        throw sql;
      }
      throw new SQLException("taking a connection failed", "08001", cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.thenAccept(BoundedAcquire::closeQuietly);
      throw new SQLTransientConnectionException("interrupted while taking a connection", "08001");
    }
  }

  private static void closeQuietly(Connection late) {
    try {
      late.close();
    } catch (SQLException ignored) {
      // Nobody is left to tell; the pool deals with a connection that fails to return.
    }
  }
}

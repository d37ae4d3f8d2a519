package io.tidemark.jdbc;

import io.tidemark.dialect.Dialect;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Stops on the server a statement that a read's socket bound cut on the client. Left alone, the
 * server runs it to its end: it holds its snapshot (on a PostgreSQL standby, replay of a cleanup
 * waits for it, and with it every token wait there) and its locks. The stop is sent on another
 * connection of the node's pool, from a thread of its own, so that the read's answer, or its
 * fallback, does not wait for it; a server that does not answer within a second is left to end the
 * statement when it notices the client is gone.
 */
final class ServerCancel {

  private static final long TIMEOUT_MILLIS = 1_000;

  // One thread is enough: a stop takes a round trip, and a burst of cuts beyond the queue means a
  // server in trouble, where a stop more or less changes nothing.
  private static final ThreadPoolExecutor SENDERS =
      new ThreadPoolExecutor(
          0,
          1,
          10,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(64),
          task -> {
            Thread thread = new Thread(task, "tidemark-server-cancel");
            thread.setDaemon(true);
            return thread;
          },
          new ThreadPoolExecutor.DiscardPolicy());

  private final DataSource pool;
  private final String statement;

  private ServerCancel(DataSource pool, String statement) {
    this.pool = pool;
    this.statement = statement;
  }

  /**
   * The stop for what {@code connection} runs, sent through {@code pool}; {@code null} when its
   * session cannot be told without a round trip. Made before a statement runs: a pool may close the
   * connection once it failed.
   */
  static @Nullable ServerCancel prepare(Connection connection, DataSource pool) {
    try {
      String statement = Dialect.cancelStatement(connection);
      return statement == null ? null : new ServerCancel(pool, statement);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /** Has the server stop the statement, from another thread. */
  void send() {
    SENDERS.execute(() -> send(pool, statement));
  }

  private static void send(DataSource pool, String statement) {
    try (Connection c =
            BoundedAcquire.connection(pool, TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS));
        SocketTimeout bound = SocketTimeout.limit(c, TIMEOUT_MILLIS);
        Statement s = c.createStatement()) {
      s.execute(statement);
    } catch (SQLException | RuntimeException e) {
      // The server is gone or not answering: the statement ends when it notices the client is.
    }
  }
}

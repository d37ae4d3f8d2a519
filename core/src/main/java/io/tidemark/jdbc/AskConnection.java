package io.tidemark.jdbc;

import io.tidemark.Deadline;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The source connection that {@link SourcePositions} sends its asks on, one at a time: kept between
 * asks, so that a steady flow of them takes a connection from the pool once a second and not once
 * per ask (a check-out bounded by the read's time costs two thread wake-ups, as much as the ask's
 * round trip). Held at most {@value #LINGER_MILLIS} ms from its check-out (a pool's leak detection
 * sees nothing unusual) and given back once asks stop; one that failed is closed, and the next ask
 * takes a new one; so is one of a former source.
 */
final class AskConnection {

  static final long LINGER_MILLIS = 1_000;

  private static final ScheduledThreadPoolExecutor RETURNS =
      new ScheduledThreadPoolExecutor(
          1,
          task -> {
            Thread thread = new Thread(task, "tidemark-ask-connection");
            thread.setDaemon(true);
            return thread;
          });

  static {
    RETURNS.setKeepAliveTime(10, TimeUnit.SECONDS);
    RETURNS.allowCoreThreadTimeOut(true);
    RETURNS.setRemoveOnCancelPolicy(true);
  }

  private final long lingerMillis;
  private @Nullable Connection kept;
  private @Nullable DataSource keptFrom;
  private long lastUsed;
  private long takenAt;
  private boolean returnScheduled;

  AskConnection() {
    this(LINGER_MILLIS);
  }

  AskConnection(long lingerMillis) {
    this.lingerMillis = lingerMillis;
  }

  /**
   * The kept connection when it is {@code source}'s and was taken less than the linger ago, else a
   * new one taken by {@code end}.
   */
  Connection take(DataSource source, Deadline end) throws SQLException {
    Connection previous;
    synchronized (this) {
      previous = kept;
      kept = null;
      if (previous != null
          && keptFrom == source
          && System.nanoTime() - takenAt < TimeUnit.MILLISECONDS.toNanos(lingerMillis)) {
        return previous;
      }
    }
    if (previous != null) {
      close(previous);
    }
    Connection taken = BoundedAcquire.connection(source, end.remaining().toNanos());
    synchronized (this) {
      keptFrom = source;
      takenAt = System.nanoTime();
    }
    return taken;
  }

  /** Keeps {@code connection}, which answered, for the next ask. */
  void keep(Connection connection) {
    synchronized (this) {
      kept = connection;
      lastUsed = System.nanoTime();
      if (returnScheduled) {
        return;
      }
      returnScheduled = true;
    }
    RETURNS.schedule(this::returnIfIdle, lingerMillis, TimeUnit.MILLISECONDS);
  }

  /** Closes {@code connection}, which failed. */
  void drop(Connection connection) {
    close(connection);
  }

  private void returnIfIdle() {
    Connection idle;
    long idleFor;
    synchronized (this) {
      idleFor = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastUsed);
      if (kept == null || idleFor < lingerMillis) {
        // In use, or used again since: look again when it may have lingered long enough.
        if (kept == null && idleFor >= lingerMillis) {
          returnScheduled = false;
          return;
        }
        RETURNS.schedule(
            this::returnIfIdle, Math.max(1, lingerMillis - idleFor), TimeUnit.MILLISECONDS);
        return;
      }
      idle = kept;
      kept = null;
      returnScheduled = false;
    }
    close(idle);
  }

  private static void close(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // Back to its pool or gone: the pool deals with a connection that fails to close.
    }
  }
}

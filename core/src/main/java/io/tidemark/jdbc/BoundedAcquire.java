package io.tidemark.jdbc;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Takes a connection from a pool within a time limit. Pools bound {@code getConnection()} only by
 * their own connection timeout (seconds, typically), and validating a pooled connection to a frozen
 * server blocks for as long; a read must not. A pool that bounds its check-out itself ({@link
 * BoundedCheckout}, the pools of {@link ReplicaPools}) is asked on the caller's thread; any other
 * on a helper thread, at the cost of two thread wake-ups. A connection that arrives after the limit
 * is closed, back into its pool. A helper left behind stays blocked until the pool answers, so once
 * {@value #MAX_ABANDONED} are for one pool, it is taken as stuck and asked no more until some come
 * back: threads cannot pile up behind a frozen server.
 */
final class BoundedAcquire {

  static final int MAX_ABANDONED = 16;

  /**
   * Per pool (by identity, held weakly: a pool's own {@code equals} is none of this class's
   * business), how many helpers whose caller gave up are still waiting for it.
   */
  private static final Map<PoolKey, AtomicInteger> ABANDONED = new ConcurrentHashMap<>();

  private static final ReferenceQueue<DataSource> GONE = new ReferenceQueue<>();

  private static final class PoolKey extends WeakReference<DataSource> {
    private final int hash;

    PoolKey(DataSource pool, @Nullable ReferenceQueue<DataSource> queue) {
      super(pool, queue);
      this.hash = System.identityHashCode(pool);
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o == this || (o instanceof PoolKey other && other.get() == get() && get() != null);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static AtomicInteger abandonedOf(DataSource pool) {
    for (Reference<?> gone; (gone = GONE.poll()) != null; ) {
      ABANDONED.remove(gone);
    }
    AtomicInteger known = ABANDONED.get(new PoolKey(pool, null));
    return known != null
        ? known
        : ABANDONED.computeIfAbsent(new PoolKey(pool, GONE), k -> new AtomicInteger());
  }

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
    if (pool instanceof BoundedCheckout bounded) {
      return bounded.connection(timeoutNanos);
    }
    AtomicInteger abandoned = abandonedOf(pool);
    if (abandoned.get() >= MAX_ABANDONED) {
      throw new SQLTransientConnectionException(
          MAX_ABANDONED + " earlier requests for a connection of this pool are still unanswered",
          "08001");
    }
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
      abandon(pending, abandoned);
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
      abandon(pending, abandoned);
      throw new SQLTransientConnectionException("interrupted while taking a connection", "08001");
    }
  }

  private static void abandon(CompletableFuture<Connection> pending, AtomicInteger abandoned) {
    abandoned.incrementAndGet();
    pending.whenComplete(
        (late, failure) -> {
          abandoned.decrementAndGet();
          if (late != null) {
            closeQuietly(late);
          }
        });
  }

  private static void closeQuietly(Connection late) {
    try {
      late.close();
    } catch (SQLException ignored) {
      // Nobody is left to tell; the pool deals with a connection that fails to return.
    }
  }
}

package io.tidemark.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The replication floor's stopwatch on a replica, alike on every database (PostgreSQL has no
 * server-side wait to observe with): {@link #arm} starts asking the standby, on a connection of its
 * own, whether row {@code id} of {@code t} is there, back to back, before the row is written;
 * {@link #visibleAt} gives the {@link System#nanoTime} of the first answer that had it. Its
 * resolution is one round trip, and it keeps a core busy while it asks, for every variant alike.
 */
final class RowObserver implements WriteObserver {

  private final Connection standby;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "row-observer");
            t.setDaemon(true);
            return t;
          });
  private @Nullable Future<Long> pending;

  RowObserver(Connection standby) {
    this.standby = standby;
  }

  /** Starts looking for row {@code id}; returns once the first look has been answered. */
  void arm(long id) {
    AtomicBoolean started = new AtomicBoolean();
    pending = thread.submit(() -> lookUntilThere(id, started));
    while (!started.get()) {
      if (pending.isDone()) {
        visibleAt();
      }
      Thread.onSpinWait();
    }
  }

  @Override
  public long visibleAt() {
    return VisibilityObserver.answer(pending);
  }

  private long lookUntilThere(long id, AtomicBoolean started) throws SQLException {
    try (PreparedStatement ps = standby.prepareStatement("SELECT 1 FROM t WHERE id = ?")) {
      ps.setLong(1, id);
      while (true) {
        try (ResultSet rs = ps.executeQuery()) {
          long at = System.nanoTime();
          if (rs.next()) {
            return at;
          }
          started.set(true);
        }
      }
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}

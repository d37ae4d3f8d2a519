package io.tidemark.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The replication floor's stopwatch on a replica, alike on every database (PostgreSQL has no
 * server-side wait to observe with): {@link #arm} starts asking the standby, on a connection of its
 * own, whether row {@code id} of {@code t} is there, back to back, before the row is written;
 * {@link #visibleAt} gives the {@link System#nanoTime} of the first answer that had it. Its
 * resolution is one round trip, and it keeps a core busy while it asks, for every variant alike.
 */
final class RowObserver extends ArmedObserver {

  private final Connection standby;

  RowObserver(Connection standby) {
    super("row-observer");
    this.standby = standby;
  }

  /** Starts looking for row {@code id}; returns once the first look has been answered. */
  void arm(long id) {
    AtomicBoolean started = new AtomicBoolean();
    Future<Long> look = start(() -> lookUntilThere(id, started));
    while (!started.get()) {
      if (look.isDone()) {
        visibleAt();
      }
      Thread.onSpinWait();
    }
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
}

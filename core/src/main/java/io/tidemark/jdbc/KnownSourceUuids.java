package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The source UUIDs of the cluster: those in the source's {@code gtid_executed} (a token can hold no
 * GTID of a source that never committed one). A token naming any other UUID is refused before it
 * reaches a replica: MySQL adds every UUID it is asked to wait for to its global map for good, so a
 * forged one would leave a mark on the server.
 */
final class KnownSourceUuids {

  private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final NodeRoutes routes;
  private final Ticker ticker;
  private final ReentrantLock refreshing = new ReentrantLock();
  private volatile Set<UUID> known = Set.of();
  private volatile long refreshedAt;
  private volatile boolean loaded;

  KnownSourceUuids(NodeRoutes routes, Ticker ticker) {
    this.routes = routes;
    this.ticker = ticker;
  }

  /**
   * Whether every UUID of {@code token} is a known source; on an unknown one the list is read
   * again, at most once a second, since a new source may have joined. Taking the turn to read it,
   * the connection and the query all end by {@code deadline}.
   *
   * @throws SQLTransientConnectionException when the list could not be read by the deadline
   */
  boolean knowsAll(GtidSet token, Deadline deadline) throws SQLException {
    if (known.containsAll(token.uuids())) {
      return true;
    }
    try {
      if (!refreshing.tryLock(Math.max(0, deadline.remaining().toNanos()), TimeUnit.NANOSECONDS)) {
        throw new SQLTransientConnectionException(
            "another read is reading the source's UUIDs; none came in time", "08001");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientConnectionException("interrupted reading the source's UUIDs", "08001");
    }
    try {
      if (!loaded || ticker.read() - refreshedAt >= REFRESH_NANOS) {
        Set<UUID> read = read(deadline);
        if (read != null) {
          known = read;
          refreshedAt = ticker.read();
          loaded = true;
        }
      }
    } finally {
      refreshing.unlock();
    }
    return known.containsAll(token.uuids());
  }

  /** The source's UUIDs, or {@code null} while no source can be reached (what is known stays). */
  private @Nullable Set<UUID> read(Deadline deadline) throws SQLException {
    DataSource source = routes.source().dataSource();
    if (source == null) {
      return null;
    }
    try (Connection c = BoundedAcquire.connection(source, deadline.remaining().toNanos());
        SocketTimeout bound = SocketTimeout.limit(c, Math.max(1, deadline.remaining().toMillis()));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_executed")) {
      rs.next();
      return GtidSet.parse(rs.getString(1)).uuids();
    }
  }
}

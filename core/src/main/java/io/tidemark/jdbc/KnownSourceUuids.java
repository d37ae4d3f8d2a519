package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.TidemarkException;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The sources of the cluster: each UUID, with its tag for tagged GTIDs, in the source's {@code
 * gtid_executed} (a token can hold no GTID of a source that never committed one). A token naming
 * any other is refused before it reaches a replica: MySQL adds every UUID it is asked to wait for
 * to its global map for good, so a forged one would leave a mark on the server; and a server
 * without tags (before 8.3) would answer a tagged set with a syntax error.
 */
final class KnownSourceUuids {

  /**
   * Shortest time between two reads of the list: a flood of unknown UUIDs costs the source little.
   */
  private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final NodeRoutes routes;
  private final Ticker ticker;
  private final ReentrantLock refreshing = new ReentrantLock();
  private volatile GtidSet known = GtidSet.EMPTY;
  private volatile long refreshedAt;
  private volatile boolean loaded;

  KnownSourceUuids(NodeRoutes routes, Ticker ticker) {
    this.routes = routes;
    this.ticker = ticker;
  }

  /**
   * Whether every source of {@code required} is a known one. An unknown one is looked up in a list
   * read after this call began (a new source may have just taken its first write), from the source
   * as seen after a fresh look at the roles, waiting for the next allowed read of it; the turn, the
   * look, the wait, the connection and the query all end by {@code deadline}.
   *
   * @throws SQLTransientConnectionException when the list could not be read by the deadline
   */
  boolean knowsAll(GtidSet required, Deadline deadline) throws SQLException {
    if (knowsAllNow(required)) {
      return true;
    }
    long asked = ticker.read();
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
      // A list read while this call waited for its turn is new enough.
      if (!loaded || refreshedAt - asked <= 0) {
        awaitNextRefresh(deadline);
        GtidSet read = read(deadline);
        if (read != null) {
          known = read;
          refreshedAt = ticker.read();
          loaded = true;
        }
      }
    } finally {
      refreshing.unlock();
    }
    return required.namesOnlySourcesOf(known);
  }

  /**
   * Sees the roles afresh first, for at most half of what is left: a UUID not seen yet is most
   * likely a newly promoted source's, and until the failover is seen here "the source" is the
   * former one, whose list lacks it. A slow look leaves the list to the source as last seen.
   */
  private void awaitRoles(Deadline deadline) {
    try {
      routes.refresh().get(Math.max(0, deadline.remaining().toNanos() / 2), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // The source as last seen is asked; at worst the token is refused as unknown.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The source's {@code gtid_executed} read now, within {@code deadline}; it becomes the list.
   *
   * @throws SQLException when no source is known or it cannot be asked by the deadline
   */
  GtidSet executedNow(Deadline deadline) throws SQLException {
    GtidSet read = read(deadline);
    if (read == null) {
      throw new SQLTransientConnectionException("no source is known", "08001");
    }
    known = read;
    refreshedAt = ticker.read();
    loaded = true;
    return read;
  }

  /**
   * The part of {@code set} whose sources are in the list: the list is read first (by {@code
   * deadline}) when it never was, and else not again, so that a replica's errant UUID costs no look
   * at the source on every read.
   *
   * @throws SQLException when the list cannot be read by {@code deadline}
   */
  private GtidSet ofKnownSources(GtidSet set, Deadline deadline) throws SQLException {
    if (!loaded) {
      knowsAll(set, deadline);
    }
    return set.restrictedToSourcesOf(known);
  }

  /**
   * What {@code connection}'s server had executed right after a query on it, so at least what the
   * query saw, limited to the cluster's sources: asked within what is left until {@code deadline}
   * (at least a millisecond, a loopback round trip); {@code null} when the server does not answer
   * in time, or the cluster's sources cannot be read yet.
   */
  @Nullable GtidSet observedOn(Connection connection, Deadline deadline) {
    long left = SocketTimeout.millisLeft(deadline.remaining());
    try {
      SocketTimeout.tighten(connection, left);
      return ofKnownSources(
          Dialect.of(connection).executed(connection),
          Deadline.after(Duration.ofMillis(left), ticker));
    } catch (SQLException | TidemarkException e) {
      return null;
    }
  }

  /** Whether every source of {@code required} is in the list as last read; no server call. */
  boolean knowsAllNow(GtidSet required) {
    return required.namesOnlySourcesOf(known);
  }

  private void awaitNextRefresh(Deadline deadline) throws SQLTransientConnectionException {
    long wait = loaded ? refreshedAt + REFRESH_NANOS - ticker.read() : 0;
    if (wait <= 0) {
      return;
    }
    if (wait >= deadline.remaining().toNanos()) {
      throw new SQLTransientConnectionException(
          "the token names a source UUID not seen yet; the next look at the source comes after"
              + " the deadline",
          "08001");
    }
    LockSupport.parkNanos(wait);
  }

  /**
   * The source's executed set, or {@code null} while no source can be reached (what is known
   * stays).
   */
  private @Nullable GtidSet read(Deadline deadline) throws SQLException {
    if (loaded) {
      awaitRoles(deadline);
    }
    DataSource source = routes.source().dataSource();
    if (source == null) {
      return null;
    }
    try (Connection c = BoundedAcquire.connection(source, deadline.remaining().toNanos());
        SocketTimeout bound =
            SocketTimeout.limit(c, Math.max(1, deadline.remaining().toMillis()))) {
      return Dialect.of(c).executed(c);
    }
  }
}

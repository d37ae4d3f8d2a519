package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.DriverSession;
import io.tidemark.internal.Failures;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * A read on the source, within the read's deadline and, for fallbacks, a limit of them at once:
 * after checking that the source has executed the token, since a source that lacks it lost writes
 * in a failover and its answer could be older than the token.
 */
final class SourceFallback {

  private final NodeRoutes routes;
  private final Semaphore permits;
  private final KnownSourceUuids knownSources;

  SourceFallback(NodeRoutes routes, int maxSourceFallbacks, KnownSourceUuids knownSources) {
    this.routes = routes;
    this.permits = new Semaphore(maxSourceFallbacks);
    this.knownSources = knownSources;
  }

  <T> ReadResult<T> run(ReadRun<T> read, Reason reason) throws SQLException {
    NodeRoutes.Route route = routes.source();
    DataSource source = route.dataSource();
    if (source == null) {
      throw read.failed(route.reason(), route.detail());
    }
    // Only fallbacks are limited: they are load a lagging replica moves to the source. A read that
    // runs there by policy or for a write would run there without Tidemark too.
    boolean fallback = reason == Reason.SOURCE_FALLBACK;
    if (fallback && !permits.tryAcquire()) {
      throw read.failed(Reason.SOURCE_FALLBACK_LIMITED, "source fallbacks at their limit");
    }
    // The read's deadline ends the whole fallback: taking the connection, the check and the query
    // each get what is left of it. No socket grace here, as no step waits on the server's clock.
    Deadline end = read.budget().deadline();
    GtidSet required = read.required();
    try (Connection connection = read.take(source, end.remaining().toNanos());
        SocketTimeout bound =
            SocketTimeout.limit(connection, SocketTimeout.millisLeft(end.remaining()))) {
      DriverSession driver = DriverSession.of(connection);
      PhysicalConnection physical = PhysicalConnection.of(connection, driver);
      Dialect dialect = Dialect.of(connection, driver);
      PhysicalConnection.endOpenTransaction(connection, dialect, driver);
      String uuid = physical.serverUuid(connection);
      SocketTimeout.tighten(connection, SocketTimeout.millisLeft(end.remaining()));
      if (!required.isEmpty() && !dialect.hasExecuted(connection, required)) {
        throw read.lost(
            connection, "source " + uuid + " has not executed the token: writes were lost");
      }
      if (!required.isEmpty()
          && !dialect.awaitVisible(
              connection,
              required,
              TimeUnit.MILLISECONDS.toNanos(SocketTimeout.millisLeft(end.remaining())))) {
        throw read.failed(
            Reason.WAIT_TIMEOUT,
            "source "
                + uuid
                + " has executed the token but does not show all of it yet: it waits for a"
                + " synchronous standby");
      }
      T value = read.readOnly(connection, end, NodeRole.SOURCE);
      if (!read.meetsRevision(value)) {
        throw read.failed(
            Reason.REVISION_NOT_REACHED,
            "source "
                + uuid
                + " returned a row older than revision "
                + read.options().minRevision());
      }
      // The source may be ahead of every replica: a later read must not go back behind it.
      read.observe(connection, knownSources);
      return new ReadResult<>(value, read.record(uuid, NodeRole.SOURCE, reason));
    } catch (SQLTransientConnectionException e) {
      throw read.failed(Reason.DATABASE_BUSY, "no source connection in time: " + e.getMessage());
    } catch (SQLException e) {
      if (Failures.isConnectionFailure(e)) {
        throw read.failed(
            Reason.SOURCE_ERROR, "source did not answer in time or failed: " + e.getMessage());
      }
      throw e;
    } finally {
      if (fallback) {
        permits.release();
      }
    }
  }
}

package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.Ticker;
import io.tidemark.dialect.Dialect;
import io.tidemark.dialect.DriverSession;
import io.tidemark.internal.Failures;
import io.tidemark.internal.ReplicaRefusedException;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A read's attempt on a replica: the route, a permit and a pinned connection, the wait for the
 * token (or joining another read's wait on the same replica), then the query on that connection in
 * a new read view. Shared by every read of one reader.
 */
final class ReplicaAttempt {

  private static final TimeUnit NANOS = TimeUnit.NANOSECONDS;

  /** How an attempt ended. */
  sealed interface Outcome<T> {}

  /** Served on the replica. */
  record Served<T>(ReadResult<T> result) implements Outcome<T> {}

  /** Not served, with the reason, for the policy to decide on. */
  record Failed<T>(Reason reason, String detail) implements Outcome<T> {}

  /**
   * Refused on the replica as a statement only the source runs: the source runs it, whatever the
   * policy.
   */
  record SourceOnly<T>(String detail) implements Outcome<T> {}

  private final NodeRoutes routes;
  private final Semaphore permits;
  private final ReplicaProgress progress = new ReplicaProgress();
  private final WaitCoalescer coalescer;

  /** What the waits on each replica see of its position, once a read has looked at it. */
  private final Map<String, Dialect.WaitSight> sights = new ConcurrentHashMap<>();

  private final KnownSourceUuids knownSources;
  private final long queryReserveNanos;
  private final Ticker ticker;
  private volatile String lastReplicaUuid = "";

  ReplicaAttempt(
      NodeRoutes routes,
      int maxReplicaReads,
      KnownSourceUuids knownSources,
      Duration queryReserve,
      Ticker ticker) {
    this.routes = routes;
    this.permits = new Semaphore(maxReplicaReads, true);
    this.coalescer = new WaitCoalescer(permits::availablePermits);
    this.knownSources = knownSources;
    this.queryReserveNanos = queryReserve.toNanos();
    this.ticker = ticker;
  }

  <T> Outcome<T> run(ReadRun<T> read) throws SQLException {
    GtidSet required = read.required();
    Deadline replicaDeadline = read.budget().replicaDeadline();
    NodeRoutes.Route route = routes.replicaFor(required, read.options().tables());
    DataSource replica = route.dataSource();
    if (replica == null) {
      return new Failed<>(route.reason(), route.detail());
    }
    // Only a wait on the replica chosen for this read is worth following: one stuck on another
    // (frozen, or its pool exhausted) would spend this read's budget for nothing.
    WaitCoalescer.Turn turn = required.isEmpty() ? null : coalesce(read, route.node());
    WaitCoalescer.Lead lead = turn instanceof WaitCoalescer.Lead l ? l : null;
    long begun = ticker.read();
    try {
      boolean permitted =
          permits.tryAcquire(Math.max(0, replicaDeadline.remaining().toNanos()), NANOS);
      read.acquired(ticker.read() - begun);
      if (!permitted) {
        return new Failed<>(Reason.DATABASE_BUSY, "no replica connection within the budget");
      }
      // Every permit taken is given back in the finally below, whatever the attempt's end.
      // Bounded by what is left once the connection came, not by the share: the check-out may
      // have spent most of it, and a new connection's first statements (who the server is,
      // read-only) run before the wait sets its own bound. They wait on no server clock, so they
      // get no socket grace either.
      try (Connection connection = read.take(replica, replicaDeadline.remaining().toNanos());
          SocketTimeout bound =
              SocketTimeout.limit(
                  connection, SocketTimeout.millisLeft(replicaDeadline.remaining()))) {
        return onConnection(read, connection, route.node(), lead);
      } catch (SQLException e) {
        if (!Failures.isConnectionFailure(e)) {
          throw e;
        }
        routes.failed(route.node());
        return new Failed<>(
            e instanceof SQLTransientConnectionException
                ? Reason.DATABASE_BUSY
                : Reason.REPLICA_ERROR,
            "no replica connection: " + e.getMessage());
      } finally {
        permits.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failed<>(Reason.DATABASE_BUSY, "interrupted while waiting for a connection");
    } finally {
      // A leader that served has told its followers already; any other end is no success.
      if (lead != null) {
        lead.finish(false);
      } else if (turn instanceof WaitCoalescer.Follow follow) {
        follow.done();
      }
    }
  }

  /**
   * The read's turn: its own lead of a wait (from the start, or handed over by a leader whose wait
   * ended without its token), a follow the leader's successful wait let go (to be {@link
   * WaitCoalescer.Follow#done done} after the attempt), or {@code null} to go on alone.
   */
  private WaitCoalescer.@Nullable Turn coalesce(ReadRun<?> read, String node) {
    GtidSet required = read.required();
    Deadline waitDeadline = read.budget().waitDeadline();
    while (!progress.contains(lastReplicaUuid, required) && !waitDeadline.isExpired()) {
      WaitCoalescer.Turn turn =
          coalescer.join(node, required, sights.getOrDefault(node, Dialect.WaitSight.OWN_POSITION));
      if (turn instanceof WaitCoalescer.Lead) {
        return turn;
      }
      long begun = ticker.read();
      ReadListener.Wait ended = read.listened().waiting(node, true);
      Boolean reached =
          ((WaitCoalescer.Follow) turn).await(Math.max(0, waitDeadline.remaining().toNanos()));
      read.waited(ticker.read() - begun);
      ended.ended(Boolean.TRUE.equals(reached));
      if (reached == null) {
        return null;
      }
      if (reached) {
        return turn;
      }
      WaitCoalescer.Lead promoted = ((WaitCoalescer.Follow) turn).promoted();
      if (promoted != null) {
        if (waitDeadline.isExpired()) {
          promoted.finish(false);
          return null;
        }
        return promoted;
      }
    }
    return null;
  }

  private <T> Outcome<T> onConnection(
      ReadRun<T> read, Connection connection, String node, WaitCoalescer.@Nullable Lead lead)
      throws SQLException {
    GtidSet required = read.required();
    Deadline waitDeadline = read.budget().waitDeadline();
    PhysicalConnection physical;
    String uuid;
    boolean keptReadOnly;
    Dialect dialect;
    DriverSession driver;
    try {
      driver = DriverSession.of(connection);
      dialect = Dialect.of(connection, driver);
      physical = PhysicalConnection.of(connection, driver);
      PhysicalConnection.endOpenTransaction(connection, dialect, driver);
      uuid = physical.serverUuid(connection);
      keptReadOnly = physical.keepReadOnly(connection, dialect, driver);
      if (!sights.containsKey(node)) {
        sights.put(node, dialect.waitSight(connection));
      }
    } catch (SQLException e) {
      Failures.abortIfBroken(connection, e);
      return new Failed<>(Reason.REPLICA_ERROR, "replica connection failed: " + e);
    }
    GtidSet seen = physical.takeExecutedWhenSeen();
    if (seen != null) {
      progress.seen(uuid, seen);
    }
    read.onReplica(uuid);
    lastReplicaUuid = uuid;
    Reason served;
    PipelinedWait pipelined = null;
    if (required.isEmpty()) {
      served = Reason.REPLICA_NO_TOKEN;
    } else if (progress.contains(uuid, required)) {
      served = Reason.REPLICA_CAUGHT_UP;
      if (lead != null) {
        lead.finish(true);
      }
    } else {
      served = Reason.REPLICA_AFTER_WAIT;
      try {
        SocketTimeout.tighten(connection, SocketTimeout.socketMillis(waitDeadline.remaining()));
        if (keptReadOnly && driver != null && physical.keepMultiStatements(driver)) {
          pipelined =
              new PipelinedWait(
                  connection,
                  dialect,
                  required,
                  () -> waitDeadline.remaining().toNanos() - queryReserveNanos,
                  observer(read, node, uuid, lead, physical),
                  ticker,
                  !driver.preparesOnServer());
        } else {
          Outcome<T> failed = awaitAlone(read, connection, dialect, node, uuid, lead, physical);
          if (failed != null) {
            return failed;
          }
        }
      } catch (SQLException e) {
        Failures.abortIfBroken(connection, e);
        return new Failed<>(Reason.REPLICA_ERROR, "wait failed on replica " + uuid + ": " + e);
      }
    }
    // The query ends with the replica attempt too: a replica that stops answering mid-query must
    // leave the fallback its share, or the read is refused at its deadline with the source idle.
    T value;
    try {
      Connection session = pipelined != null ? pipelined.connection() : connection;
      Connection forQuery =
          SourceOnlyStatements.guard(
              dialect.forReplicaQuery(session), physical.multiStatementsLetByTidemark());
      value =
          keptReadOnly
              ? read.query(forQuery, read.budget().replicaDeadline(), NodeRole.REPLICA)
              : read.readOnly(session, forQuery, read.budget().replicaDeadline(), NodeRole.REPLICA);
      if (pipelined != null) {
        pipelined.settle();
      }
    } catch (SQLException | RuntimeException e) {
      // Whatever the query made of it, a wait that ended without the token ends the attempt.
      if (pipelined != null && pipelined.endedWithoutToken()) {
        return notReached(pipelined, connection, uuid);
      }
      if (e instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      SQLException failure = (SQLException) e;
      // The replica is fine and the read can run elsewhere: the policy decides. Only here, on the
      // replica: the same failure on the source is the read's own.
      if (failure instanceof ReplicaRefusedException refusal && refusal.sourceOnly()) {
        return new SourceOnly<>("replica " + uuid + " " + refusal.getMessage());
      }
      String refused = dialect.refusedOnReplica(failure);
      if (refused == null) {
        throw failure;
      }
      return new Failed<>(
          Reason.REPLICA_ERROR, "replica " + uuid + " " + refused + ": " + failure.getMessage());
    }
    if (pipelined != null && pipelined.endedWithoutToken()) {
      return notReached(pipelined, connection, uuid);
    }
    if (!read.meetsRevision(value)) {
      return new Failed<>(
          Reason.REVISION_NOT_REACHED,
          "replica "
              + uuid
              + " returned a row older than revision "
              + read.options().minRevision());
    }
    read.observe(connection, knownSources);
    return new Served<>(new ReadResult<>(value, read.record(uuid, NodeRole.REPLICA, served)));
  }

  /**
   * The wait alone, before the query: where the session cannot take the wait and the query in one
   * text. {@code null} when the replica executed the token in time.
   */
  private <T> @Nullable Outcome<T> awaitAlone(
      ReadRun<T> read,
      Connection connection,
      Dialect dialect,
      String node,
      String uuid,
      WaitCoalescer.@Nullable Lead lead,
      PhysicalConnection physical)
      throws SQLException {
    Deadline waitDeadline = read.budget().waitDeadline();
    long budget = waitDeadline.remaining().toNanos() - queryReserveNanos;
    PipelinedWait.Observer observer = observer(read, node, uuid, lead, physical);
    observer.waiting();
    long begun = ticker.read();
    boolean executed = false;
    try {
      executed = dialect.await(connection, read.required(), budget, observer.seenIfWatched());
    } finally {
      observer.ended(executed, ticker.read() - begun);
    }
    return executed ? null : timedOut(uuid, budget);
  }

  /** Tells the listener, the read and the wait's followers how a wait on {@code node} went. */
  private PipelinedWait.Observer observer(
      ReadRun<?> read,
      String node,
      String uuid,
      WaitCoalescer.@Nullable Lead lead,
      PhysicalConnection physical) {
    return new PipelinedWait.Observer() {
      private ReadListener.@Nullable Wait ended;

      @Override
      public void waiting() {
        ended = read.listened().waiting(node, false);
      }

      @Override
      public void seen(GtidSet executed) {
        ReplicaAttempt.this.seen(node, uuid, executed);
      }

      @Override
      public boolean watched() {
        return coalescer.watched(node);
      }

      @Override
      public void takenAsOne() {
        physical.multiStatementsLost();
      }

      @Override
      public void ended(boolean reached, long nanos) {
        read.waited(nanos);
        if (ended != null) {
          ended.ended(reached);
        }
        if (reached) {
          ReplicaAttempt.this.seen(node, uuid, read.required());
          if (lead != null) {
            // Followers need not wait for this read's query, only for the replica.
            lead.finish(true);
          }
        }
      }
    };
  }

  /**
   * What a wait saw the replica {@code uuid}, routed as {@code node}, had executed: the reads
   * waiting on it for no more than that may go.
   */
  private void seen(String node, String uuid, GtidSet executed) {
    progress.advance(uuid, executed);
    coalescer.observed(node, required -> progress.contains(uuid, required));
  }

  private static <T> Outcome<T> notReached(
      PipelinedWait pipelined, Connection connection, String uuid) {
    SQLException failure = pipelined.failure();
    if (pipelined.state() == PipelinedWait.State.FAILED && failure != null) {
      Failures.abortIfBroken(connection, failure);
      return new Failed<>(Reason.REPLICA_ERROR, "wait failed on replica " + uuid + ": " + failure);
    }
    return timedOut(uuid, pipelined.sentBudgetNanos());
  }

  private static <T> Outcome<T> timedOut(String uuid, long budgetNanos) {
    return new Failed<>(
        budgetNanos <= 0 ? Reason.BUDGET_EXHAUSTED : Reason.WAIT_TIMEOUT,
        "replica "
            + uuid
            + " did not reach the token within "
            + Duration.ofNanos(Math.max(0, budgetNanos)).toMillis()
            + " ms");
  }
}

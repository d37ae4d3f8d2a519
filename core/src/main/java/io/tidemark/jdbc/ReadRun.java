package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.Ticker;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.Failures;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One read as it runs: what it must see, its budget, its query, and what it waited and where; the
 * replica attempt and the source fallback both work on it.
 */
final class ReadRun<T> {

  private final ReadOptions options;
  private final SqlFunction<T> query;
  private final @Nullable ToLongFunction<? super T> revisionOf;
  private final ReadBudget budget;
  private final GtidSet required;
  private final @Nullable ConsistencyContext context;
  private final LostWrites lostWrites;
  private final Ticker ticker;
  private long acquiringNanos;
  private long waitedNanos;
  private long queryingNanos;
  private String replicaNode = "";
  private final ReadListener.Read listened;

  // The connection taken last and its pool: a statement of the query cut on it is stopped there.
  private @Nullable DataSource pool;
  private @Nullable Connection taken;

  ReadRun(
      ReadOptions options,
      SqlFunction<T> query,
      @Nullable ToLongFunction<? super T> revisionOf,
      ReadBudget budget,
      GtidSet floor,
      LostWrites lostWrites,
      Ticker ticker,
      ReadListener.Read listened) {
    this.options = options;
    this.query = query;
    this.revisionOf = revisionOf;
    this.budget = budget;
    this.context = ConsistencyContext.currentOrNull();
    GtidSet required = options.required();
    GtidSet token =
        required != null
            ? required
            : context != null && options.level() != ConsistencyLevel.EVENTUAL
                ? context.gtids()
                : GtidSet.EMPTY;
    this.required = floor.isEmpty() ? token : token.union(floor);
    this.lostWrites = lostWrites;
    this.ticker = ticker;
    this.listened = listened;
  }

  ReadOptions options() {
    return options;
  }

  /** What listens to this read: told of its waits. */
  ReadListener.Read listened() {
    return listened;
  }

  ReadBudget budget() {
    return budget;
  }

  /** The GTIDs the read must see. */
  GtidSet required() {
    return required;
  }

  /** The context the read runs under, or {@code null}. */
  @Nullable ConsistencyContext context() {
    return context;
  }

  /** Adds time spent waiting for a permit to take a connection. */
  void acquired(long nanos) {
    acquiringNanos += nanos;
  }

  /** A connection of {@code pool} within {@code timeoutNanos} ({@link BoundedAcquire}). */
  Connection take(DataSource pool, long timeoutNanos) throws SQLException {
    this.pool = pool;
    long begun = ticker.read();
    try {
      taken = BoundedAcquire.connection(pool, timeoutNanos);
      return taken;
    } finally {
      acquiringNanos += ticker.read() - begun;
    }
  }

  /** Adds time spent waiting for the token. */
  void waited(long nanos) {
    waitedNanos += nanos;
  }

  /** Notes the replica the read went to. */
  void onReplica(String uuid) {
    replicaNode = uuid;
  }

  /**
   * Runs the query on a read-only connection: a write in it would escape capture on the source, so
   * the token would miss it, and would be an errant transaction on a replica. Where the driver's
   * read-only flag binds transactions only (PgJDBC), an autocommit query on the {@code source} runs
   * in a read-only transaction, rolled back after it (a standby refuses writes itself). A
   * connection that cannot be made writable again after the query is aborted; what it read stays
   * good.
   */
  T readOnly(Connection connection, Deadline end, NodeRole role) throws SQLException {
    return readOnly(connection, connection, end, role);
  }

  /**
   * As {@link #readOnly(Connection, Deadline, NodeRole)}, the query on {@code forQuery}, a view of
   * {@code connection} that may refuse statements the read's own query may not send.
   */
  T readOnly(Connection connection, Connection forQuery, Deadline end, NodeRole role)
      throws SQLException {
    Dialect dialect = Dialect.of(connection);
    boolean transaction =
        role == NodeRole.SOURCE && connection.getAutoCommit() && dialect.readOnlyNeedsTransaction();
    if (transaction) {
      connection.setAutoCommit(false);
    }
    dialect.readOnly(connection, true);
    T value;
    try {
      value = query(forQuery, end, role);
    } catch (SQLException | RuntimeException e) {
      try {
        writable(dialect, connection, transaction);
      } catch (SQLException alsoFailed) {
        e.addSuppressed(alsoFailed);
      }
      throw e;
    }
    try {
      writable(dialect, connection, transaction);
    } catch (SQLException e) {
      Failures.abortIfBroken(connection, e);
    }
    return value;
  }

  private static void writable(Dialect dialect, Connection connection, boolean inTransaction)
      throws SQLException {
    if (inTransaction) {
      connection.rollback();
      connection.setAutoCommit(true);
    }
    dialect.readOnly(connection, false);
  }

  /**
   * Runs the query on {@code connection} as it is (read-only already), the socket reads of each of
   * its statements bounded by what is left until {@code end}: the deadline on the source, the end
   * of the replica attempt on a replica, so that one that stops answering leaves a fallback its
   * share. On the source, its statements are sent without the {@code tidemark:source} hint; on a
   * replica, the caller's guard refuses a hinted statement before it is sent.
   */
  T query(Connection connection, Deadline end, NodeRole role) throws SQLException {
    long begun = ticker.read();
    long waitedBefore = waitedNanos;
    try {
      return query.apply(
          new DeadlineBound(
                  connection,
                  end,
                  budget.deadline(),
                  () ->
                      failed(
                          Reason.BUDGET_EXHAUSTED,
                          "the read's deadline passed before a statement of its query"),
                  this::serverCancel,
                  role == NodeRole.SOURCE)
              .connection());
    } finally {
      // A wait sent with the query's first statement is counted as waiting, not twice.
      queryingNanos += ticker.read() - begun - (waitedNanos - waitedBefore);
    }
  }

  /**
   * Notes in the context what the served read saw: at least what it waited for, and, with monotonic
   * reads, what its server had executed right after the query, so that the client's next read sees
   * at least as much. When the server cannot tell in time, the context turns dirty: the next reads
   * go to the source, which has it all, and the answer's token covers the source.
   */
  void observe(Connection connection, KnownSourceUuids knownSources) {
    if (context == null) {
      return;
    }
    if (options.required() == null) {
      context.waitedFor(required);
    }
    if (options.monotonic()) {
      GtidSet executed = knownSources.observedOn(connection, budget.deadline());
      if (executed != null) {
        context.observed(executed);
      } else {
        context.markDirty(
            "monotonic reads: what the read's server had executed after the query could not be"
                + " read in time");
      }
    }
  }

  /** How a statement of the query cut on the connection taken last is stopped on its server. */
  private @Nullable ServerCancel serverCancel() {
    Connection connection = taken;
    DataSource from = pool;
    return connection == null || from == null ? null : ServerCancel.prepare(connection, from);
  }

  /** Whether {@code value} has at least the read's minimum revision, when it asks for one. */
  boolean meetsRevision(T value) {
    return revisionOf == null
        || options.minRevision() == Long.MIN_VALUE
        || revisionOf.applyAsLong(value) >= options.minRevision();
  }

  /** The read's {@code TOKEN_NOT_ON_SOURCE}, within what is left of its deadline. */
  ConsistentReadException lost(Connection source, String detail) {
    try {
      SocketTimeout.tighten(source, SocketTimeout.millisLeft(budget.deadline().remaining()));
    } catch (SQLException e) {
      // The source already said it lacks the token; only which GTIDs may stay untold.
    }
    return lostWrites.notOnSource(source, required, node(), waited(), detail);
  }

  ConsistentReadException failed(Reason reason, String detail) {
    return ConsistentReadException.of(reason, required, node(), waited(), detail);
  }

  ExecutionRecord record(String node, NodeRole role, Reason reason) {
    return new ExecutionRecord(
        node,
        role,
        reason,
        Duration.ofNanos(acquiringNanos),
        waited(),
        Duration.ofNanos(queryingNanos),
        Duration.ofNanos(ticker.read() - budget.started()));
  }

  private String node() {
    return replicaNode.isEmpty() ? "replica" : replicaNode;
  }

  private Duration waited() {
    return Duration.ofNanos(waitedNanos);
  }
}

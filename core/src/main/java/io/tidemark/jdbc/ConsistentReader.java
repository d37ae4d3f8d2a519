package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.Ticker;
import io.tidemark.TidemarkException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs reads that must see the current {@link ConsistencyContext}'s writes: on the replica after it
 * executed the context's GTID set, on one pinned connection with no transaction open before the
 * wait and a new read view after it; or, when the replica does not catch up within the budget, as
 * the read's {@link ReadPolicy} says. Never returns data older than the token, and never turns "not
 * caught up" into "not found".
 *
 * <pre>{@code
 * ConsistentReader reader = ConsistentReader.builder(replicaPool, sourcePool).build();
 * ReadResult<Order> order = reader.read(ReadOptions.defaults(), c -> findOrder(c, 101));
 * }</pre>
 *
 * <p>This class is the read path's one larger class: the steps share the deadline, the pinned
 * connection and the record, and read best in one place, in order.
 */
public final class ConsistentReader {

  private final NodeRoutes routes;
  private final Ticker ticker;
  private final ReadOptions defaults;
  private final Semaphore replicaReads;
  private final Semaphore sourceFallbacks;
  private final long queryReserveNanos;
  private final Duration fallbackReserve;
  private final Consumer<ExecutionRecord> recorder;
  private final ReplicaProgress progress = new ReplicaProgress();
  private final WaitCoalescer coalescer = new WaitCoalescer();
  private final GtidWaiter waiter;
  private final KnownSourceUuids knownSources;
  private final LostWrites lostWrites = new LostWrites();
  private volatile String lastReplicaUuid = "";

  private ConsistentReader(Builder b) {
    this.routes = b.routes;
    this.ticker = b.ticker;
    this.defaults = b.defaults;
    this.replicaReads = new Semaphore(b.maxReplicaReads, true);
    this.sourceFallbacks = new Semaphore(b.maxSourceFallbacks);
    this.queryReserveNanos = b.queryReserve.toNanos();
    this.fallbackReserve = b.fallbackReserve;
    this.recorder = b.recorder;
    this.waiter = new GtidWaiter(ticker);
    this.knownSources = new KnownSourceUuids(routes, ticker);
  }

  /** Starts building a reader over the replica's and the source's data sources. */
  public static Builder builder(DataSource replica, DataSource source) {
    return new Builder(NodeRoutes.fixed(replica, source));
  }

  /** Starts building a reader whose nodes are chosen when each read runs. */
  public static Builder builder(NodeRoutes routes) {
    return new Builder(Objects.requireNonNull(routes, "routes"));
  }

  /** The options of reads that name none; derive per-read options from them. */
  public ReadOptions defaults() {
    return defaults;
  }

  /** Runs {@code query} with the reader's default options. */
  public <T> ReadResult<T> read(SqlFunction<T> query) throws SQLException {
    return read(defaults, query, null);
  }

  /** Runs {@code query} with {@code options}. */
  public <T> ReadResult<T> read(ReadOptions options, SqlFunction<T> query) throws SQLException {
    return read(options, query, null);
  }

  /**
   * Runs {@code query} requiring its result to have at least {@link ReadOptions#minRevision()} as
   * told by {@code revisionOf} (which should give {@link Long#MIN_VALUE} for "no row"); an older
   * result is never returned, the read goes on per policy instead.
   *
   * @throws ConsistentReadException when the read cannot be served as the policy allows
   * @throws SQLException when {@code query} itself fails
   */
  public <T> ReadResult<T> read(
      ReadOptions options, SqlFunction<T> query, @Nullable ToLongFunction<? super T> revisionOf)
      throws SQLException {
    if (options.minRevision() != Long.MIN_VALUE && revisionOf == null) {
      throw new IllegalArgumentException(
          "a minimum revision needs a revision function: use read(options, query, revisionOf)");
    }
    Read<T> read = new Read<>(options, query, revisionOf);
    try {
      ReadResult<T> result = read.run();
      record(read, result.record());
      return result;
    } catch (ConsistentReadException e) {
      record(read, read.record("", "none", e.reason()));
      throw e;
    }
  }

  /**
   * The source's {@code gtid_executed}, read now: it contains every transaction the source
   * committed before this call, so it covers a write whose GTID escaped capture, and it is what a
   * token over the size limits is compacted with.
   *
   * @throws SQLException when no source is known or it cannot be asked within {@code timeout}
   */
  public GtidSet sourceExecuted(Duration timeout) throws SQLException {
    return knownSources.executedNow(Deadline.after(timeout, ticker));
  }

  /**
   * Checks a read that joins the transaction open on {@code connection} (a {@link
   * CapturingDataSource}'s, on the source) instead of running on a connection of its own: that
   * transaction's read view must have been taken after the current context's writes, and its server
   * must have executed them. Under a read view per statement ({@code READ COMMITTED}), {@code
   * viewPerStatement} skips the first check.
   *
   * @throws IllegalStateException when the transaction ran statements before the context gained
   *     some of its GTIDs, so its read view may miss them
   * @throws ConsistentReadException with {@link Reason#TOKEN_NOT_ON_SOURCE} when the server lacks
   *     some of them: writes were lost in a failover
   */
  public void checkJoinedTransaction(Connection connection, boolean viewPerStatement)
      throws SQLException {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    GtidSet token = context == null ? GtidSet.EMPTY : context.gtids();
    if (token.isEmpty()) {
      return;
    }
    GtidSet visible =
        viewPerStatement ? null : CapturingConnectionHandler.atFirstStatement(connection);
    if (visible != null && !visible.containsAll(token)) {
      throw new IllegalStateException(
          "a read joins a transaction whose read view may predate writes its token names ("
              + token.subtract(visible)
              + "); read before the transaction's first statement, outside it, or in one that"
              + " reads committed data per statement");
    }
    if (!waiter.executed(connection, token)) {
      throw notOnSource(
          connection,
          token,
          "source",
          Duration.ZERO,
          "the transaction's server has not executed the token: writes were lost");
    }
  }

  /**
   * The {@code TOKEN_NOT_ON_SOURCE} of a token {@code source} lacks, naming (and remembering) what
   * it lacks when the source can tell.
   */
  private ConsistentReadException notOnSource(
      Connection source, GtidSet token, String replica, Duration waited, String detail) {
    GtidSet missing;
    try {
      missing = waiter.missing(source, token);
    } catch (SQLException e) {
      missing = null;
    }
    if (missing == null || missing.isEmpty()) {
      return ConsistentReadException.of(Reason.TOKEN_NOT_ON_SOURCE, token, replica, waited, detail);
    }
    lostWrites.remember(missing);
    return ConsistentReadException.lost(token, missing, replica, waited, detail);
  }

  private void record(Read<?> read, ExecutionRecord record) {
    if (read.context != null) {
      read.context.recordRead(record);
    }
    recorder.accept(record);
  }

  /** One read: its deadline, token, waited time and the way it went. */
  private final class Read<T> {
    private final ReadOptions options;
    private final SqlFunction<T> query;
    private final @Nullable ToLongFunction<? super T> revisionOf;
    private final long started = ticker.read();
    private final Deadline deadline;

    /** When the replica attempt must end: earlier than the read when it may fall back. */
    private final Deadline replicaDeadline;

    private final GtidSet token;
    private final @Nullable ConsistencyContext context = ConsistencyContext.currentOrNull();
    private long waitedNanos;
    private String replicaNode = "";

    Read(
        ReadOptions options, SqlFunction<T> query, @Nullable ToLongFunction<? super T> revisionOf) {
      this.options = options;
      this.query = query;
      this.revisionOf = revisionOf;
      this.deadline = Deadline.after(options.timeout(), ticker);
      this.replicaDeadline =
          options.policy() == ReadPolicy.FALLBACK_TO_SOURCE
              ? deadline.atMost(options.timeout().minus(fallbackReserveOf(options.timeout())))
              : deadline;
      GtidSet required = options.token();
      this.token = required != null ? required : context != null ? context.gtids() : GtidSet.EMPTY;
    }

    ReadResult<T> run() throws SQLException {
      if (options.sourceOnly() || (context != null && context.isDirty())) {
        return onSource(Reason.SOURCE_BY_POLICY);
      }
      if (!token.isEmpty() && !knownSources.knowsAllNow(token) && !knowsSourcesOf(token)) {
        throw failed(
            Reason.TOKEN_REJECTED,
            token.hasTags()
                ? "the token names a source UUID or GTID tag this cluster's source never committed"
                    + " (tagged GTIDs need MySQL 8.3 or later on every node)"
                : "the token names a source UUID this cluster lacks");
      }
      if (options.policy() == ReadPolicy.FALLBACK_TO_SOURCE && lostWrites.namedIn(token)) {
        // No replica will reach a token that names lost writes: the source tells at once.
        return onSource(Reason.SOURCE_FALLBACK);
      }
      long pause = TimeUnit.MILLISECONDS.toNanos(5);
      while (true) {
        Outcome<T> outcome = onReplica();
        if (outcome.result != null) {
          return outcome.result;
        }
        Reason failure = outcome.failure;
        switch (options.policy()) {
          case FALLBACK_TO_SOURCE -> {
            if (deadline.isExpired()) {
              // A fallback begun with nothing left could only overrun the deadline, and a source
              // connection cut by a spent socket bound would be lost to every other read.
              throw failed(failure, outcome.detail + "; no time left to fall back to the source");
            }
            return onSource(Reason.SOURCE_FALLBACK);
          }
          case FAIL -> throw failed(failure, outcome.detail);
          case RETRY -> {
            long left = deadline.remaining().toNanos();
            if (left <= 0) {
              throw failed(failure, outcome.detail + "; retried until the deadline");
            }
            if (Thread.currentThread().isInterrupted()) {
              // An interrupted thread can neither pause nor take a permit: retrying would spin.
              throw failed(failure, outcome.detail + "; interrupted, so not retried");
            }
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(200));
          }
        }
      }
    }

    private boolean knowsSourcesOf(GtidSet token) throws SQLException {
      try {
        // The socket grace, as for a replica: even a read with no budget left may look them up.
        if (knownSources.knowsAll(
            token, Deadline.after(Duration.ofMillis(socketMillis(deadline)), ticker))) {
          return true;
        }
        // Without a source to ask, an unknown UUID may be a new source's: that is transient, and
        // saying the token is bad would tell the client not to retry.
        NodeRoutes.Route source = routes.source();
        if (source.dataSource() == null) {
          throw failed(
              source.reason(),
              source.detail() + "; the token's source UUIDs cannot be checked without a source");
        }
        return false;
      } catch (SQLTransientConnectionException e) {
        throw failed(
            Reason.DATABASE_BUSY, "could not check the token's sources: " + e.getMessage());
      } catch (SQLException e) {
        if (isConnectionFailure(e)) {
          throw failed(
              Reason.SOURCE_ERROR, "could not check the token's sources: " + e.getMessage());
        }
        throw e;
      }
    }

    private Outcome<T> onReplica() throws SQLException {
      NodeRoutes.Route route = routes.replicaFor(token, options.tables());
      DataSource replica = route.dataSource();
      if (replica == null) {
        return Outcome.failed(route.reason(), route.detail());
      }
      // Only a wait on the replica chosen for this read is worth following: one stuck on another
      // (frozen, or its pool exhausted) would spend this read's budget for nothing.
      WaitCoalescer.Lead lead = token.isEmpty() ? null : coalesce(route.node());
      try {
        if (!replicaReads.tryAcquire(Math.max(0, replicaDeadline.remaining().toNanos()), NANOS)) {
          return Outcome.failed(Reason.DATABASE_BUSY, "no replica connection within the budget");
        }
        // Every permit taken is given back in the finally below, whatever the attempt's end.
        try (Connection connection =
                BoundedAcquire.connection(
                    replica, TimeUnit.MILLISECONDS.toNanos(socketMillis(replicaDeadline)));
            SocketTimeout bound = SocketTimeout.limit(connection, socketMillis(replicaDeadline))) {
          return readOnReplica(connection, lead);
        } catch (SQLException e) {
          if (!isConnectionFailure(e)) {
            throw e;
          }
          routes.failed(route.node());
          return Outcome.failed(
              e instanceof SQLTransientConnectionException
                  ? Reason.DATABASE_BUSY
                  : Reason.REPLICA_ERROR,
              "no replica connection: " + e.getMessage());
        } finally {
          replicaReads.release();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Outcome.failed(Reason.DATABASE_BUSY, "interrupted while waiting for a connection");
      } finally {
        if (lead != null) {
          lead.finish(progress.contains(lastReplicaUuid, token));
        }
      }
    }

    private @Nullable WaitCoalescer.Lead coalesce(String node) {
      while (!progress.contains(lastReplicaUuid, token) && !replicaDeadline.isExpired()) {
        WaitCoalescer.Turn turn = coalescer.join(node, token);
        if (turn instanceof WaitCoalescer.Lead lead) {
          return lead;
        }
        long begun = ticker.read();
        try {
          Boolean reached =
              ((WaitCoalescer.Follow) turn)
                  .executed()
                  .get(Math.max(0, replicaDeadline.remaining().toNanos()), NANOS);
          waitedNanos += ticker.read() - begun;
          if (reached) {
            return null;
          }
        } catch (TimeoutException e) {
          waitedNanos += ticker.read() - begun;
          return null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        } catch (ExecutionException e) {
          throw new IllegalStateException("a coalesced wait failed", e);
        }
      }
      return null;
    }

    private Outcome<T> readOnReplica(Connection connection, WaitCoalescer.@Nullable Lead lead)
        throws SQLException {
      PhysicalConnection physical;
      String uuid;
      try {
        physical = PhysicalConnection.of(connection);
        PhysicalConnection.endOpenTransaction(connection);
        uuid = physical.serverUuid(connection);
      } catch (SQLException e) {
        evictIfBroken(connection, e);
        return Outcome.failed(Reason.REPLICA_ERROR, "replica connection failed: " + e);
      }
      GtidSet seen = physical.takeExecutedWhenSeen();
      if (seen != null) {
        progress.seen(uuid, seen);
      }
      replicaNode = uuid;
      lastReplicaUuid = uuid;
      Reason served;
      if (token.isEmpty()) {
        served = Reason.REPLICA_NO_TOKEN;
      } else if (progress.contains(uuid, token)) {
        served = Reason.REPLICA_CAUGHT_UP;
      } else {
        long budget = replicaDeadline.remaining().toNanos() - queryReserveNanos;
        long begun = ticker.read();
        boolean executed;
        try {
          SocketTimeout.tighten(connection, socketMillis(replicaDeadline));
          executed = waiter.await(connection, uuid, token, budget);
        } catch (SQLException e) {
          waitedNanos += ticker.read() - begun;
          evictIfBroken(connection, e);
          return Outcome.failed(Reason.REPLICA_ERROR, "wait failed on replica " + uuid + ": " + e);
        }
        waitedNanos += ticker.read() - begun;
        if (!executed) {
          return Outcome.failed(
              budget <= 0 ? Reason.BUDGET_EXHAUSTED : Reason.WAIT_TIMEOUT,
              "replica "
                  + uuid
                  + " did not reach the token within "
                  + Duration.ofNanos(Math.max(0, budget)).toMillis()
                  + " ms");
        }
        progress.advance(uuid, token);
        if (lead != null) {
          // Followers need not wait for this read's query, only for the replica.
          lead.finish(true);
        }
        served = Reason.REPLICA_AFTER_WAIT;
      }
      // The replica holds the token now, so the fallback's reserve is better spent on its query
      // than on a fallback begun late: cutting the query would also cost the connection.
      SocketTimeout.tighten(connection, millisLeft(deadline));
      T value = readOnly(connection);
      if (!meetsRevision(value)) {
        return Outcome.failed(
            Reason.REVISION_NOT_REACHED,
            "replica " + uuid + " returned a row older than revision " + options.minRevision());
      }
      if (options.monotonic() && context != null) {
        context.merge(observed(connection));
      }
      return Outcome.served(new ReadResult<>(value, record(uuid, "replica", served)));
    }

    /**
     * What the replica had executed right after the query, so at least what the query saw, limited
     * to the cluster's sources; nothing when the read has no time left or the replica fails to
     * answer, since the value read is sound either way.
     */
    private GtidSet observed(Connection connection) {
      long left = millisLeft(deadline);
      if (left <= 0) {
        return GtidSet.EMPTY;
      }
      try {
        SocketTimeout.tighten(connection, left);
      } catch (SQLException e) {
        return GtidSet.EMPTY;
      }
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_executed")) {
        rs.next();
        return knownSources.ofKnownSources(
            GtidSet.parse(rs.getString(1)), Deadline.after(Duration.ofMillis(left), ticker));
      } catch (SQLException | TidemarkException e) {
        return GtidSet.EMPTY;
      }
    }

    /**
     * Runs the query on a read-only connection, each of its statements bounded by what is left of
     * the deadline: a write in it would escape capture on the source, so the token would miss it,
     * and would be an errant transaction on a replica. A connection that cannot be made writable
     * again after the query is aborted; what it read stays good.
     */
    private T readOnly(Connection connection) throws SQLException {
      connection.setReadOnly(true);
      T value;
      try {
        value =
            query.apply(
                DeadlineBound.wrap(
                    connection,
                    () -> deadline.remaining().toMillis(),
                    () ->
                        failed(
                            Reason.BUDGET_EXHAUSTED,
                            "the read's deadline passed before a statement of its query")));
      } catch (SQLException | RuntimeException e) {
        try {
          connection.setReadOnly(false);
        } catch (SQLException alsoFailed) {
          e.addSuppressed(alsoFailed);
        }
        throw e;
      }
      try {
        connection.setReadOnly(false);
      } catch (SQLException e) {
        evictIfBroken(connection, e);
      }
      return value;
    }

    private ReadResult<T> onSource(Reason reason) throws SQLException {
      NodeRoutes.Route route = routes.source();
      DataSource source = route.dataSource();
      if (source == null) {
        throw failed(route.reason(), route.detail());
      }
      if (!sourceFallbacks.tryAcquire()) {
        throw failed(Reason.SOURCE_FALLBACK_LIMITED, "source fallbacks at their limit");
      }
      // The read's deadline ends the whole fallback: taking the connection, the check and the query
      // each get what is left of it. No socket grace here, as no step waits on the server's clock.
      Deadline end = deadline;
      try (Connection connection = BoundedAcquire.connection(source, end.remaining().toNanos());
          SocketTimeout bound = SocketTimeout.limit(connection, millisLeft(end))) {
        PhysicalConnection physical = PhysicalConnection.of(connection);
        PhysicalConnection.endOpenTransaction(connection);
        String uuid = physical.serverUuid(connection);
        SocketTimeout.tighten(connection, millisLeft(end));
        if (!token.isEmpty() && !waiter.executed(connection, token)) {
          throw lost(
              connection, "source " + uuid + " has not executed the token: writes were lost");
        }
        SocketTimeout.tighten(connection, millisLeft(end));
        T value = readOnly(connection);
        if (!meetsRevision(value)) {
          throw failed(
              Reason.REVISION_NOT_REACHED,
              "source " + uuid + " returned a row older than revision " + options.minRevision());
        }
        return new ReadResult<>(value, record(uuid, "source", reason));
      } catch (SQLTransientConnectionException e) {
        throw failed(Reason.DATABASE_BUSY, "no source connection in time: " + e.getMessage());
      } catch (SQLException e) {
        if (isConnectionFailure(e)) {
          throw failed(
              Reason.SOURCE_ERROR, "source did not answer in time or failed: " + e.getMessage());
        }
        throw e;
      } finally {
        sourceFallbacks.release();
      }
    }

    private static long millisLeft(Deadline end) {
      // A network timeout of 0 would mean none at all.
      return Math.max(1, end.remaining().toMillis());
    }

    /**
     * What is left until {@code end} plus a grace for socket reads: a server that answers nothing
     * must not hold the read past its deadline, yet a wait the server ends on time must not be cut
     * by the socket first.
     */
    private long socketMillis(Deadline end) {
      return Math.max(0, end.remaining().toMillis()) + SOCKET_GRACE_MILLIS;
    }

    private boolean meetsRevision(T value) {
      return revisionOf == null
          || options.minRevision() == Long.MIN_VALUE
          || revisionOf.applyAsLong(value) >= options.minRevision();
    }

    /** The read's {@code TOKEN_NOT_ON_SOURCE}, within what is left of its deadline. */
    private ConsistentReadException lost(Connection source, String detail) {
      try {
        SocketTimeout.tighten(source, millisLeft(deadline));
      } catch (SQLException e) {
        // The source already said it lacks the token; only which GTIDs may stay untold.
      }
      return notOnSource(
          source, token, replicaNode.isEmpty() ? "replica" : replicaNode, waited(), detail);
    }

    private ConsistentReadException failed(Reason reason, String detail) {
      return ConsistentReadException.of(
          reason, token, replicaNode.isEmpty() ? "replica" : replicaNode, waited(), detail);
    }

    private Duration waited() {
      return Duration.ofNanos(waitedNanos);
    }

    ExecutionRecord record(String node, String role, Reason reason) {
      return new ExecutionRecord(
          node, role, reason, waited(), Duration.ofNanos(ticker.read() - started));
    }
  }

  /** A replica attempt: served, or failed with a reason. */
  private record Outcome<T>(@Nullable ReadResult<T> result, Reason failure, String detail) {
    static <T> Outcome<T> served(ReadResult<T> result) {
      return new Outcome<>(result, Reason.REPLICA_AFTER_WAIT, "");
    }

    static <T> Outcome<T> failed(Reason reason, String detail) {
      return new Outcome<>(null, reason, detail);
    }
  }

  private static boolean isConnectionFailure(SQLException e) {
    return e instanceof SQLNonTransientConnectionException
        || e instanceof SQLTransientConnectionException
        || (e.getSQLState() != null && e.getSQLState().startsWith("08"));
  }

  private static void evictIfBroken(Connection connection, SQLException e) {
    if (isConnectionFailure(e)) {
      try {
        connection.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // Already unusable; closing it in the caller's finally is all that is left to do.
      }
    }
  }

  private static final TimeUnit NANOS = TimeUnit.NANOSECONDS;
  private static final long SOCKET_GRACE_MILLIS = 50;

  /** The share of a budget kept for a source fallback: at most half, so the replica gets a wait. */
  private Duration fallbackReserveOf(Duration budget) {
    Duration half = budget.dividedBy(2);
    return fallbackReserve.compareTo(half) < 0 ? fallbackReserve : half;
  }

  /** Builds a {@link ConsistentReader}; every setting has a default. */
  public static final class Builder {

    /** Default limit of reads holding a replica connection at once. */
    public static final int DEFAULT_MAX_REPLICA_READS = 64;

    /** Default limit of reads falling back to the source at once. */
    public static final int DEFAULT_MAX_SOURCE_FALLBACKS = 16;

    /** Default time kept back from the wait for the query itself. */
    public static final Duration DEFAULT_QUERY_RESERVE = Duration.ofMillis(10);

    /** Default time kept back from the replica attempt for a source fallback. */
    public static final Duration DEFAULT_FALLBACK_RESERVE = Duration.ofMillis(200);

    private final NodeRoutes routes;
    private Ticker ticker = Ticker.systemTicker();
    private ReadOptions defaults = ReadOptions.defaults();
    private int maxReplicaReads = DEFAULT_MAX_REPLICA_READS;
    private int maxSourceFallbacks = DEFAULT_MAX_SOURCE_FALLBACKS;
    private Duration queryReserve = DEFAULT_QUERY_RESERVE;
    private Duration fallbackReserve = DEFAULT_FALLBACK_RESERVE;
    private Consumer<ExecutionRecord> recorder = r -> {};

    private Builder(NodeRoutes routes) {
      this.routes = routes;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** Options of reads that name none. */
    public Builder defaults(ReadOptions defaults) {
      this.defaults = Objects.requireNonNull(defaults, "defaults");
      return this;
    }

    /** At most this many reads hold a replica connection; more wait, then fail busy. */
    public Builder maxReplicaReads(int max) {
      this.maxReplicaReads = positive(max, "maxReplicaReads");
      return this;
    }

    /** At most this many reads fall back to the source at once; more fail at once. */
    public Builder maxSourceFallbacks(int max) {
      this.maxSourceFallbacks = positive(max, "maxSourceFallbacks");
      return this;
    }

    /** Time kept back from the wait so the query still fits in the budget. */
    public Builder queryReserve(Duration reserve) {
      if (reserve.isNegative()) {
        throw new IllegalArgumentException("queryReserve must not be negative: " + reserve);
      }
      this.queryReserve = reserve;
      return this;
    }

    /**
     * Time kept back from the replica attempt of a read that may fall back to the source (at most
     * half its budget), so the fallback too ends within the read's deadline.
     */
    public Builder fallbackReserve(Duration reserve) {
      if (reserve.isNegative()) {
        throw new IllegalArgumentException("fallbackReserve must not be negative: " + reserve);
      }
      this.fallbackReserve = reserve;
      return this;
    }

    /** Receives the record of every read, served or failed. */
    public Builder recorder(Consumer<ExecutionRecord> recorder) {
      this.recorder = Objects.requireNonNull(recorder, "recorder");
      return this;
    }

    public ConsistentReader build() {
      return new ConsistentReader(this);
    }

    private static int positive(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, was " + value);
      }
      return value;
    }
  }
}

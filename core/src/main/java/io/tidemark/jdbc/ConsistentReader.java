package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.Ticker;
import io.tidemark.internal.Failures;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * <p>A read runs its policy here; the attempt on a replica ({@link ReplicaAttempt}) and the read on
 * the source ({@link SourceFallback}) share one {@link ReadRun}: its budget, token and record.
 */
public final class ConsistentReader {

  private final NodeRoutes routes;
  private final Ticker ticker;
  private final ReadOptions defaults;
  private final Duration fallbackReserve;
  private final ReadListener listener;
  private final KnownSourceUuids knownSources;
  private final LostWrites lostWrites;
  private final ReplicaAttempt replica;
  private final SourceFallback source;
  private final SourcePositions sourcePositions;

  private ConsistentReader(Builder b) {
    this.routes = b.routes;
    this.ticker = b.ticker;
    this.defaults = b.defaults;
    this.fallbackReserve = b.fallbackReserve;
    this.listener = ReadListener.all(b.listeners);
    this.knownSources = new KnownSourceUuids(routes, ticker);
    this.lostWrites = new LostWrites();
    this.replica =
        new ReplicaAttempt(routes, b.maxReplicaReads, knownSources, b.queryReserve, ticker);
    this.source = new SourceFallback(routes, b.maxSourceFallbacks, knownSources);
    this.sourcePositions = new SourcePositions(routes, b.ticker);
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
    return execute(options, query, revisionOf);
  }

  /**
   * Runs one {@code SELECT}, {@code sql} with {@code parameters} bound to its {@code ?}s, and makes
   * {@code rows} of its result: {@link #read} for a single query.
   *
   * <pre>{@code
   * ReadResult<String> status =
   *     reader.query(options, "SELECT status FROM orders WHERE id = ?",
   *         rows -> rows.next() ? rows.getString(1) : null, 101);
   * }</pre>
   *
   * @throws IllegalArgumentException when {@code sql} is not one statement: it holds a {@code ;}
   *     but at its end (bind a literal that has one as a parameter), or nothing
   * @throws ConsistentReadException when the read cannot be served as the policy allows
   * @throws SQLException when the query itself fails
   */
  public <T> ReadResult<T> query(
      ReadOptions options, String sql, ResultSetFunction<T> rows, Object... parameters)
      throws SQLException {
    String statement = oneStatement(sql);
    Object[] bound = parameters.clone();
    return execute(
        options,
        connection -> {
          try (PreparedStatement ps = connection.prepareStatement(statement)) {
            for (int i = 0; i < bound.length; i++) {
              ps.setObject(i + 1, bound[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
              return rows.apply(rs);
            }
          }
        },
        null);
  }

  private static String oneStatement(String sql) {
    String trimmed = sql.strip();
    if (trimmed.endsWith(";")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
    }
    if (trimmed.isEmpty() || trimmed.indexOf(';') >= 0) {
      throw new IllegalArgumentException(
          "a query is one statement, without ';' (not even in a literal; bind it as a parameter): "
              + sql);
    }
    return trimmed;
  }

  private <T> ReadResult<T> execute(
      ReadOptions options, SqlFunction<T> query, @Nullable ToLongFunction<? super T> revisionOf)
      throws SQLException {
    if (options.minRevision() != Long.MIN_VALUE && revisionOf == null) {
      throw new IllegalArgumentException(
          "a minimum revision needs a revision function: use read(options, query, revisionOf)");
    }
    ReadListener.Read listened = listener.started(options.name());
    ExecutionRecord record = null;
    Throwable failure = null;
    try {
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      ReadBudget budget = ReadBudget.of(options, fallbackReserve, ticker, context);
      GtidSet floor = GtidSet.EMPTY;
      boolean sourceUnknown = false;
      ConsistencyLevel level = options.level();
      if ((level == ConsistencyLevel.GLOBAL || level == ConsistencyLevel.BOUNDED)
          && !toSourceAnyway(options)) {
        try {
          floor =
              level == ConsistencyLevel.GLOBAL
                  ? sourcePositions.executedSinceNow(budget.deadline())
                  : sourcePositions.executedSince(
                      budget.started() - stalenessNanos(options), budget.deadline());
        } catch (SQLException e) {
          // The source has all of it: what it cannot tell in time, it may still serve.
          sourceUnknown = true;
        }
      }
      ReadRun<T> read =
          new ReadRun<>(options, query, revisionOf, budget, floor, lostWrites, ticker, listened);
      try {
        ReadResult<T> result = sourceUnknown ? source.run(read, Reason.SOURCE_FALLBACK) : run(read);
        record = record(read, result.record());
        return result;
      } catch (ConsistentReadException e) {
        record = record(read, read.record("", NodeRole.NONE, e.reason()));
        throw e;
      }
    } catch (SQLException | RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      listened.ended(record, failure);
    }
  }

  /** The read's maximum staleness, at most a day: longer is no bound a read could tell apart. */
  private static long stalenessNanos(ReadOptions options) {
    return Math.min(options.maxStaleness().toMillis(), TimeUnit.DAYS.toMillis(1)) * 1_000_000L;
  }

  /** Whether the read goes to the source whatever the replicas have: no position to learn. */
  private static boolean toSourceAnyway(ReadOptions options) {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    return options.sourceOnly()
        || (context != null && (context.isDirty() || context.writeIntent() != null));
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

  /** Asks of the source what it executed, made for {@code GLOBAL} reads so far. */
  long sourcePositionAsks() {
    return sourcePositions.asked();
  }

  /**
   * GTIDs lost in a failover: committed on a former source, and missing on the one that reads go to
   * now, as this reader's reads found or its routes saw ({@link NodeRoutes#notOnSource}). A cached
   * value that reflects any of them may be one the database no longer holds.
   */
  public GtidSet lostWrites() {
    GtidSet found = lostWrites.known();
    GtidSet seen = routes.notOnSource();
    return seen.isEmpty() ? found : found.union(seen);
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
    JoinedTransactions.check(connection, viewPerStatement, lostWrites);
  }

  private static ExecutionRecord record(ReadRun<?> read, ExecutionRecord record) {
    ConsistencyContext context = read.context();
    if (context != null) {
      context.recordRead(record);
    }
    return record;
  }

  /** The read's policy: the replica, then as the policy says when it does not serve. */
  private <T> ReadResult<T> run(ReadRun<T> read) throws SQLException {
    ReadOptions options = read.options();
    GtidSet required = read.required();
    ConsistencyContext context = read.context();
    if (options.sourceOnly() || (context != null && context.isDirty())) {
      return source.run(read, Reason.SOURCE_BY_POLICY);
    }
    if (context != null && context.writeIntent() != null) {
      return source.run(read, Reason.SOURCE_FOR_WRITE);
    }
    if (!required.isEmpty() && !knownSources.knowsAllNow(required) && !knowsSourcesOf(read)) {
      throw read.failed(
          Reason.TOKEN_REJECTED,
          required.hasTags()
              ? "the token names a source UUID or GTID tag this cluster's source never committed"
                  + " (tagged GTIDs need MySQL 8.3 or later on every node)"
              : "the token names a source UUID this cluster lacks");
    }
    if (options.policy() == ReadPolicy.FALLBACK_TO_SOURCE && lostWrites.namedIn(required)) {
      // No replica will reach a token that names lost writes: the source tells at once.
      return source.run(read, Reason.SOURCE_FALLBACK);
    }
    Deadline deadline = read.budget().deadline();
    long pause = TimeUnit.MILLISECONDS.toNanos(5);
    while (true) {
      ReplicaAttempt.Outcome<T> outcome = replica.run(read);
      if (outcome instanceof ReplicaAttempt.Served<T> served) {
        return served.result();
      }
      if (outcome instanceof ReplicaAttempt.SourceOnly<T> sourceOnly) {
        if (deadline.isExpired()) {
          throw read.failed(
              Reason.BUDGET_EXHAUSTED, sourceOnly.detail() + "; no time left for the source");
        }
        return source.run(read, Reason.SOURCE_FOR_WRITE);
      }
      ReplicaAttempt.Failed<T> failed = (ReplicaAttempt.Failed<T>) outcome;
      switch (options.policy()) {
        case FALLBACK_TO_SOURCE -> {
          if (deadline.isExpired()) {
            // A fallback begun with nothing left could only overrun the deadline, and a source
            // connection cut by a spent socket bound would be lost to every other read.
            throw read.failed(
                failed.reason(), failed.detail() + "; no time left to fall back to the source");
          }
          return source.run(read, Reason.SOURCE_FALLBACK);
        }
        case FAIL -> throw read.failed(failed.reason(), failed.detail());
        case RETRY -> {
          long left = deadline.remaining().toNanos();
          if (left <= 0) {
            throw read.failed(failed.reason(), failed.detail() + "; retried until the deadline");
          }
          if (Thread.currentThread().isInterrupted()) {
            // An interrupted thread can neither pause nor take a permit: retrying would spin.
            throw read.failed(failed.reason(), failed.detail() + "; interrupted, so not retried");
          }
          LockSupport.parkNanos(Math.min(pause, left));
          pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(200));
        }
      }
    }
  }

  private boolean knowsSourcesOf(ReadRun<?> read) throws SQLException {
    GtidSet required = read.required();
    try {
      // The socket grace, as for a replica: even a read with no budget left may look them up.
      if (knownSources.knowsAll(
          required,
          Deadline.after(
              Duration.ofMillis(SocketTimeout.socketMillis(read.budget().deadline().remaining())),
              ticker))) {
        return true;
      }
      // Without a source to ask, an unknown UUID may be a new source's: that is transient, and
      // saying the token is bad would tell the client not to retry.
      NodeRoutes.Route source = routes.source();
      if (source.dataSource() == null) {
        throw read.failed(
            source.reason(),
            source.detail() + "; the token's source UUIDs cannot be checked without a source");
      }
      return false;
    } catch (SQLTransientConnectionException e) {
      throw read.failed(
          Reason.DATABASE_BUSY, "could not check the token's sources: " + e.getMessage());
    } catch (SQLException e) {
      if (Failures.isConnectionFailure(e)) {
        throw read.failed(
            Reason.SOURCE_ERROR, "could not check the token's sources: " + e.getMessage());
      }
      throw e;
    }
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
    private final List<ReadListener> listeners = new ArrayList<>();

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

    /**
     * Adds {@code listener}, told of every read: its start, its waits and its end with its record
     * ({@link ReadListener#ofRecords} for the records alone). Listeners are told in the order they
     * were added.
     */
    public Builder listener(ReadListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
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

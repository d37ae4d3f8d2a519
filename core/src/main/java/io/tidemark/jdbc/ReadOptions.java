package io.tidemark.jdbc;

import io.tidemark.ConsistencyLevel;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How one read is run: its time budget, its policy when the replica is behind, the GTID set it
 * requires (by default the current context's), and the revision it requires, if any. Immutable;
 * each {@code with} method returns a copy.
 */
public final class ReadOptions {

  /** Default budget of a read: pool acquire, wait and query together. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

  /** Default staleness a {@link ConsistencyLevel#BOUNDED BOUNDED} read allows. */
  public static final Duration DEFAULT_MAX_STALENESS = Duration.ofSeconds(1);

  private static final ReadOptions DEFAULTS =
      new ReadOptions(
          DEFAULT_TIMEOUT,
          ReadPolicy.FALLBACK_TO_SOURCE,
          null,
          Long.MIN_VALUE,
          false,
          Set.of(),
          false,
          ConsistencyLevel.SESSION,
          DEFAULT_MAX_STALENESS);

  private final Duration timeout;
  private final ReadPolicy policy;
  private final @Nullable GtidSet required;
  private final long minRevision;
  private final boolean sourceOnly;
  private final Set<String> tables;
  private final boolean monotonic;
  private final ConsistencyLevel level;
  private final Duration maxStaleness;

  private ReadOptions(
      Duration timeout,
      ReadPolicy policy,
      @Nullable GtidSet required,
      long minRevision,
      boolean sourceOnly,
      Set<String> tables,
      boolean monotonic,
      ConsistencyLevel level,
      Duration maxStaleness) {
    this.timeout = timeout;
    this.policy = policy;
    this.required = required;
    this.minRevision = minRevision;
    this.sourceOnly = sourceOnly;
    this.tables = tables;
    this.monotonic = monotonic;
    this.level = level;
    this.maxStaleness = maxStaleness;
  }

  /** One second, {@link ReadPolicy#FALLBACK_TO_SOURCE}, the context's token, no revision. */
  public static ReadOptions defaults() {
    return DEFAULTS;
  }

  /**
   * A budget of {@code timeout} for the whole read.
   *
   * @throws IllegalArgumentException when negative
   */
  public ReadOptions withTimeout(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    return new ReadOptions(
        timeout, policy, required, minRevision, sourceOnly, tables, monotonic, level, maxStaleness);
  }

  public ReadOptions withPolicy(ReadPolicy policy) {
    return new ReadOptions(
        timeout,
        Objects.requireNonNull(policy, "policy"),
        required,
        minRevision,
        sourceOnly,
        tables,
        monotonic,
        level,
        maxStaleness);
  }

  /** Requires {@code required} instead of the current context's GTID set. */
  public ReadOptions requiring(GtidSet required) {
    return new ReadOptions(
        timeout,
        policy,
        Objects.requireNonNull(required, "required"),
        minRevision,
        sourceOnly,
        tables,
        monotonic,
        level,
        maxStaleness);
  }

  /**
   * Requires the row read to have at least {@code revision}, as told by the revision function of
   * {@link ConsistentReader#read(ReadOptions, SqlFunction, java.util.function.ToLongFunction)}.
   */
  public ReadOptions withMinRevision(long revision) {
    return new ReadOptions(
        timeout, policy, required, revision, sourceOnly, tables, monotonic, level, maxStaleness);
  }

  /**
   * Runs the read on the source, verified to hold the token: for what only the source can answer
   * (node-local statistics, a counter read right before a write of the same transaction).
   */
  public ReadOptions withSourceOnly() {
    return new ReadOptions(
        timeout, policy, required, minRevision, true, tables, monotonic, level, maxStaleness);
  }

  /**
   * Names the tables ({@code db.table}) the read touches, so that replicas whose replication
   * filters leave any of them out are not chosen.
   */
  public ReadOptions withTables(String... tables) {
    return new ReadOptions(
        timeout,
        policy,
        required,
        minRevision,
        sourceOnly,
        Set.of(tables),
        monotonic,
        level,
        maxStaleness);
  }

  /**
   * Monotonic reads: after a read, what its server had executed (sampled on the same connection
   * right after the query, limited to the cluster's source UUIDs) joins the context, so the
   * answer's token makes the client's next read see at least as much, even for a client that never
   * writes: after a source read too, since the source may be ahead of every replica. One more round
   * trip per read; off by default.
   */
  public ReadOptions withMonotonic(boolean monotonic) {
    return new ReadOptions(
        timeout, policy, required, minRevision, sourceOnly, tables, monotonic, level, maxStaleness);
  }

  /**
   * What the read must see: {@link ConsistencyLevel#SESSION} (the token), {@link
   * ConsistencyLevel#GLOBAL} (everything the source had committed when it began, and the token),
   * {@link ConsistencyLevel#BOUNDED} (as {@code GLOBAL}, {@link #withMaxStaleness} before it began)
   * or {@link ConsistencyLevel#EVENTUAL} (what the replica has).
   */
  public ReadOptions withLevel(ConsistencyLevel level) {
    return new ReadOptions(
        timeout,
        policy,
        required,
        minRevision,
        sourceOnly,
        tables,
        monotonic,
        Objects.requireNonNull(level, "level"),
        maxStaleness);
  }

  /**
   * How far behind the source a {@link ConsistencyLevel#BOUNDED BOUNDED} read may be: it sees
   * everything the source had committed this long before it began.
   *
   * @throws IllegalArgumentException when negative
   */
  public ReadOptions withMaxStaleness(Duration maxStaleness) {
    Objects.requireNonNull(maxStaleness, "maxStaleness");
    if (maxStaleness.isNegative()) {
      throw new IllegalArgumentException("maxStaleness must not be negative: " + maxStaleness);
    }
    return new ReadOptions(
        timeout, policy, required, minRevision, sourceOnly, tables, monotonic, level, maxStaleness);
  }

  /** How far behind the source a {@link ConsistencyLevel#BOUNDED BOUNDED} read may be. */
  public Duration maxStaleness() {
    return maxStaleness;
  }

  /** What the read must see. */
  public ConsistencyLevel level() {
    return level;
  }

  /** Whether replica reads add what they observed to the context. */
  public boolean monotonic() {
    return monotonic;
  }

  /** The tables the read touches, as told; empty when not told. */
  public Set<String> tables() {
    return tables;
  }

  /** Whether the read runs on the source only. */
  public boolean sourceOnly() {
    return sourceOnly;
  }

  public Duration timeout() {
    return timeout;
  }

  public ReadPolicy policy() {
    return policy;
  }

  /** The required GTID set, or {@code null} for the current context's. */
  public @Nullable GtidSet required() {
    return required;
  }

  /** The minimum revision, {@link Long#MIN_VALUE} when none is required. */
  public long minRevision() {
    return minRevision;
  }
}

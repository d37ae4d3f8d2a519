package io.tidemark.jdbc;

import io.tidemark.ConsistencyLevel;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
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

  /** The name of a read that was given none. */
  public static final String DEFAULT_NAME = "read";

  private static final ReadOptions DEFAULTS = new ReadOptions(new Values());

  private final Duration timeout;
  private final ReadPolicy policy;
  private final @Nullable GtidSet required;
  private final long minRevision;
  private final boolean sourceOnly;
  private final Set<String> tables;
  private final boolean monotonic;
  private final ConsistencyLevel level;
  private final Duration maxStaleness;
  private final String name;

  private ReadOptions(Values values) {
    this.timeout = values.timeout;
    this.policy = values.policy;
    this.required = values.required;
    this.minRevision = values.minRevision;
    this.sourceOnly = values.sourceOnly;
    this.tables = values.tables;
    this.monotonic = values.monotonic;
    this.level = values.level;
    this.maxStaleness = values.maxStaleness;
    this.name = values.name;
  }

  /** A copy of these options with {@code change} made to it. */
  private ReadOptions with(Consumer<Values> change) {
    Values values = new Values(this);
    change.accept(values);
    return new ReadOptions(values);
  }

  /** The options' values while a copy is made: the defaults, or another options'. */
  private static final class Values {
    Duration timeout = DEFAULT_TIMEOUT;
    ReadPolicy policy = ReadPolicy.FALLBACK_TO_SOURCE;
    @Nullable GtidSet required;
    long minRevision = Long.MIN_VALUE;
    boolean sourceOnly;
    Set<String> tables = Set.of();
    boolean monotonic;
    ConsistencyLevel level = ConsistencyLevel.SESSION;
    Duration maxStaleness = DEFAULT_MAX_STALENESS;
    String name = DEFAULT_NAME;

    Values() {}

    Values(ReadOptions from) {
      this.timeout = from.timeout;
      this.policy = from.policy;
      this.required = from.required;
      this.minRevision = from.minRevision;
      this.sourceOnly = from.sourceOnly;
      this.tables = from.tables;
      this.monotonic = from.monotonic;
      this.level = from.level;
      this.maxStaleness = from.maxStaleness;
      this.name = from.name;
    }
  }

  /**
   * A read named {@code name} for its listeners ({@link ReadListener}): in metrics and traces, the
   * method or query it serves.
   *
   * @throws IllegalArgumentException when blank
   */
  public ReadOptions withName(String name) {
    if (name.isBlank()) {
      throw new IllegalArgumentException("a read's name must not be blank");
    }
    return with(v -> v.name = name);
  }

  /** The read's name for its listeners; {@value #DEFAULT_NAME} unless given one. */
  public String name() {
    return name;
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
    return with(v -> v.timeout = timeout);
  }

  public ReadOptions withPolicy(ReadPolicy policy) {
    return with(v -> v.policy = Objects.requireNonNull(policy, "policy"));
  }

  /** Requires {@code required} instead of the current context's GTID set. */
  public ReadOptions requiring(GtidSet required) {
    return with(v -> v.required = Objects.requireNonNull(required, "required"));
  }

  /**
   * Requires the row read to have at least {@code revision}, as told by the revision function of
   * {@link ConsistentReader#read(ReadOptions, SqlFunction, java.util.function.ToLongFunction)}.
   */
  public ReadOptions withMinRevision(long revision) {
    return with(v -> v.minRevision = revision);
  }

  /**
   * Runs the read on the source, verified to hold the token: for what only the source can answer
   * (node-local statistics, a counter read right before a write of the same transaction).
   */
  public ReadOptions withSourceOnly() {
    return with(v -> v.sourceOnly = true);
  }

  /**
   * Names the tables ({@code db.table}) the read touches, so that replicas whose replication
   * filters leave any of them out are not chosen.
   */
  public ReadOptions withTables(String... tables) {
    return with(v -> v.tables = Set.of(tables));
  }

  /**
   * Monotonic reads: after a read, what its server had executed (sampled on the same connection
   * right after the query, limited to the cluster's source UUIDs) joins the context, so the
   * answer's token makes the client's next read see at least as much, even for a client that never
   * writes: after a source read too, since the source may be ahead of every replica. One more round
   * trip per read; off by default.
   */
  public ReadOptions withMonotonic(boolean monotonic) {
    return with(v -> v.monotonic = monotonic);
  }

  /**
   * What the read must see: {@link ConsistencyLevel#SESSION} (the token), {@link
   * ConsistencyLevel#GLOBAL} (everything the source had committed when it began, and the token),
   * {@link ConsistencyLevel#BOUNDED} (as {@code GLOBAL}, {@link #withMaxStaleness} before it began)
   * or {@link ConsistencyLevel#EVENTUAL} (what the replica has).
   */
  public ReadOptions withLevel(ConsistencyLevel level) {
    return with(v -> v.level = Objects.requireNonNull(level, "level"));
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
    return with(v -> v.maxStaleness = maxStaleness);
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

package io.tidemark.scope;

import static io.tidemark.internal.ConfigChecks.atLeastOneMilli;
import static io.tidemark.internal.ConfigChecks.redisKeyPrefix;

import io.tidemark.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable settings of a {@link ScopeStore}; {@link #defaults()} or {@link #builder()}, and {@link
 * #toBuilder()} to change a few.
 */
public final class ScopeStoreConfig {

  /** Default for {@link #keyPrefix()}. */
  public static final String DEFAULT_KEY_PREFIX = "tidemark:scope:";

  /** Default for {@link #timeToLive()}: far longer than any replica a read would wait for lags. */
  public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofHours(1);

  /** Default for {@link #dirtyTimeToLive()}. */
  public static final Duration DEFAULT_DIRTY_TIME_TO_LIVE = Duration.ofMinutes(10);

  /**
   * Default for {@link #commandTimeout()}: a request's budget must survive a slow Redis, yet a
   * Redis on a busy host must not send reads to the source (or fail writes' merges) for a few
   * milliseconds of scheduling delay.
   */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofMillis(50);

  /** Default for {@link #maxIntervals()}, the default interval limit of a token. */
  public static final int DEFAULT_MAX_INTERVALS = 128;

  /** Default for {@link #invalidationChannel()}. */
  public static final String DEFAULT_INVALIDATION_CHANNEL = "tidemark:scope:changed";

  /** Default for {@link #localTimeToLive()}. */
  public static final Duration DEFAULT_LOCAL_TIME_TO_LIVE = Duration.ofSeconds(1);

  private static final ScopeStoreConfig DEFAULTS = builder().build();

  private final String keyPrefix;
  private final Duration timeToLive;
  private final Duration dirtyTimeToLive;
  private final Duration commandTimeout;
  private final int maxIntervals;
  private final String invalidationChannel;
  private final Duration localTimeToLive;
  private final Ticker ticker;

  private ScopeStoreConfig(Builder builder) {
    this.keyPrefix = builder.keyPrefix;
    this.timeToLive = builder.timeToLive;
    this.dirtyTimeToLive = builder.dirtyTimeToLive;
    this.commandTimeout = builder.commandTimeout;
    this.maxIntervals = builder.maxIntervals;
    this.invalidationChannel = builder.invalidationChannel;
    this.localTimeToLive = builder.localTimeToLive;
    this.ticker = builder.ticker;
  }

  /** The defaults. */
  public static ScopeStoreConfig defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.keyPrefix = keyPrefix;
    builder.timeToLive = timeToLive;
    builder.dirtyTimeToLive = dirtyTimeToLive;
    builder.commandTimeout = commandTimeout;
    builder.maxIntervals = maxIntervals;
    builder.invalidationChannel = invalidationChannel;
    builder.localTimeToLive = localTimeToLive;
    builder.ticker = ticker;
    return builder;
  }

  /** Prefix of every Redis key, before the scope's hash tag. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** How long a scope lives after its last merge. */
  public Duration timeToLive() {
    return timeToLive;
  }

  /**
   * How long a scope stays dirty after a write under it escaped capture; should exceed the longest
   * replica lag that reads are allowed to wait out.
   */
  public Duration dirtyTimeToLive() {
    return dirtyTimeToLive;
  }

  /**
   * The longest a scope's key lives after a write, the larger of {@link #timeToLive()} and {@link
   * #dirtyTimeToLive()}: how long after an eviction a scope that Redis does not hold may have been
   * evicted rather than expired.
   */
  public Duration longestTimeToLive() {
    return timeToLive.compareTo(dirtyTimeToLive) >= 0 ? timeToLive : dirtyTimeToLive;
  }

  /** Longest wait for one Redis call; a call that takes longer counts as failed. */
  public Duration commandTimeout() {
    return commandTimeout;
  }

  /** Most GTID intervals a scope holds; a merge past it marks the scope dirty instead. */
  public int maxIntervals() {
    return maxIntervals;
  }

  /**
   * Redis pub/sub channel on which every merge and dirty mark names its scope, so that near caches
   * drop their copy.
   */
  public String invalidationChannel() {
    return invalidationChannel;
  }

  /**
   * Longest time a {@linkplain ScopeStore#nearCache near cache} answers a scope from memory without
   * hearing of a change: the bound on staleness when an invalidation message is lost.
   */
  public Duration localTimeToLive() {
    return localTimeToLive;
  }

  /** Time source of the in-process stores' expiry. */
  public Ticker ticker() {
    return ticker;
  }

  /** Builds a {@link ScopeStoreConfig}; every setter checks its argument at once. */
  public static final class Builder {
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration timeToLive = DEFAULT_TIME_TO_LIVE;
    private Duration dirtyTimeToLive = DEFAULT_DIRTY_TIME_TO_LIVE;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private int maxIntervals = DEFAULT_MAX_INTERVALS;
    private String invalidationChannel = DEFAULT_INVALIDATION_CHANNEL;
    private Duration localTimeToLive = DEFAULT_LOCAL_TIME_TO_LIVE;
    private Ticker ticker = Ticker.systemTicker();

    private Builder() {}

    /** Prefix of every Redis key; without braces, which would break the hash tags. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = redisKeyPrefix(keyPrefix);
      return this;
    }

    /** How long a scope lives after its last merge; at least 1 ms. */
    public Builder timeToLive(Duration timeToLive) {
      this.timeToLive = atLeastOneMilli("timeToLive", timeToLive);
      return this;
    }

    /** How long a scope stays dirty; at least 1 ms. */
    public Builder dirtyTimeToLive(Duration dirtyTimeToLive) {
      this.dirtyTimeToLive = atLeastOneMilli("dirtyTimeToLive", dirtyTimeToLive);
      return this;
    }

    /** Longest wait for one Redis call; at least 1 ms. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = atLeastOneMilli("commandTimeout", commandTimeout);
      return this;
    }

    /** Most GTID intervals a scope holds; at least 1. */
    public Builder maxIntervals(int maxIntervals) {
      if (maxIntervals < 1) {
        throw new IllegalArgumentException("maxIntervals must be at least 1: " + maxIntervals);
      }
      this.maxIntervals = maxIntervals;
      return this;
    }

    /** Redis pub/sub channel of scope changes; not empty. */
    public Builder invalidationChannel(String invalidationChannel) {
      if (invalidationChannel.isEmpty()) {
        throw new IllegalArgumentException("invalidationChannel must not be empty");
      }
      this.invalidationChannel = invalidationChannel;
      return this;
    }

    /** Longest time a near cache serves a scope from memory; at least 1 ms. */
    public Builder localTimeToLive(Duration localTimeToLive) {
      this.localTimeToLive = atLeastOneMilli("localTimeToLive", localTimeToLive);
      return this;
    }

    /** Time source of the in-process store's expiry; the system ticker by default. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** Builds the configuration. */
    public ScopeStoreConfig build() {
      return new ScopeStoreConfig(this);
    }
  }
}

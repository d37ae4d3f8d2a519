package io.tidemark.cache;

import static io.tidemark.internal.ConfigChecks.atLeastOneMilli;
import static io.tidemark.internal.ConfigChecks.redisKeyPrefix;

import io.tidemark.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable settings of a {@link RevisionGuardedCache}; {@link #defaults()} or {@link #builder()},
 * and {@link #toBuilder()} to change a few.
 */
public final class RevisionGuardedCacheConfig {

  /** Default for {@link #keyPrefix()}. */
  public static final String DEFAULT_KEY_PREFIX = "tidemark:cache:";

  /** Default for {@link #timeToLive()}. */
  public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofMinutes(10);

  /** Default for {@link #tombstoneTimeToLive()}: longer than any reader takes to load a value. */
  public static final Duration DEFAULT_TOMBSTONE_TIME_TO_LIVE = Duration.ofMinutes(1);

  /** Default for {@link #commandTimeout()}. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofMillis(5);

  /** Default for {@link #maximumSize()}. */
  public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

  private static final RevisionGuardedCacheConfig DEFAULTS = builder().build();

  private final String keyPrefix;
  private final Duration timeToLive;
  private final Duration tombstoneTimeToLive;
  private final Duration commandTimeout;
  private final long maximumSize;
  private final Ticker ticker;

  private RevisionGuardedCacheConfig(Builder builder) {
    this.keyPrefix = builder.keyPrefix;
    this.timeToLive = builder.timeToLive;
    this.tombstoneTimeToLive = builder.tombstoneTimeToLive;
    this.commandTimeout = builder.commandTimeout;
    this.maximumSize = builder.maximumSize;
    this.ticker = builder.ticker;
  }

  /** The defaults. */
  public static RevisionGuardedCacheConfig defaults() {
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
    builder.tombstoneTimeToLive = tombstoneTimeToLive;
    builder.commandTimeout = commandTimeout;
    builder.maximumSize = maximumSize;
    builder.ticker = ticker;
    return builder;
  }

  /** Prefix of every Redis key. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** How long a value stays cached after it was stored. */
  public Duration timeToLive() {
    return timeToLive;
  }

  /**
   * How long a deletion's tombstone refuses older puts; a reader slower than this can bring a
   * deleted value back for reads without a minimum revision.
   */
  public Duration tombstoneTimeToLive() {
    return tombstoneTimeToLive;
  }

  /** Longest wait for one Redis call; a call that takes longer is a miss or a refused write. */
  public Duration commandTimeout() {
    return commandTimeout;
  }

  /** Most entries of the in-process tier; evicting one only costs a miss. */
  public long maximumSize() {
    return maximumSize;
  }

  /** Time source of the in-process tier's expiry. */
  public Ticker ticker() {
    return ticker;
  }

  /** Builds a {@link RevisionGuardedCacheConfig}; every setter checks its argument at once. */
  public static final class Builder {
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration timeToLive = DEFAULT_TIME_TO_LIVE;
    private Duration tombstoneTimeToLive = DEFAULT_TOMBSTONE_TIME_TO_LIVE;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private long maximumSize = DEFAULT_MAXIMUM_SIZE;
    private Ticker ticker = Ticker.systemTicker();

    private Builder() {}

    /** Prefix of every Redis key; without braces, which would break the hash tags. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = redisKeyPrefix(keyPrefix);
      return this;
    }

    /** How long a value stays cached; at least 1 ms. */
    public Builder timeToLive(Duration timeToLive) {
      this.timeToLive = atLeastOneMilli("timeToLive", timeToLive);
      return this;
    }

    /** How long a tombstone refuses older puts; at least 1 ms. */
    public Builder tombstoneTimeToLive(Duration tombstoneTimeToLive) {
      this.tombstoneTimeToLive = atLeastOneMilli("tombstoneTimeToLive", tombstoneTimeToLive);
      return this;
    }

    /** Longest wait for one Redis call; at least 1 ms. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = atLeastOneMilli("commandTimeout", commandTimeout);
      return this;
    }

    /** Most entries of the in-process tier; at least 1. */
    public Builder maximumSize(long maximumSize) {
      if (maximumSize < 1) {
        throw new IllegalArgumentException("maximumSize must be at least 1: " + maximumSize);
      }
      this.maximumSize = maximumSize;
      return this;
    }

    /** Time source of the in-process tier's expiry; the system ticker by default. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** Builds the configuration. */
    public RevisionGuardedCacheConfig build() {
      return new RevisionGuardedCacheConfig(this);
    }
  }
}

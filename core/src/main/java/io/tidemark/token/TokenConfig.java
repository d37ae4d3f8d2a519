package io.tidemark.token;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Immutable settings of a {@link TokenCodec}: the key ring, the size limits that apply both when a
 * token is encoded and when one is verified, the time to live, the allowed clock skew and the
 * clock.
 *
 * <pre>{@code
 * TokenConfig config = TokenConfig.builder(keyRing).timeToLive(Duration.ofHours(1)).build();
 * }</pre>
 *
 * <p>The defaults keep a header of a few clusters' tokens well below the 8 KiB that common HTTP
 * servers allow for all headers together.
 */
public final class TokenConfig {

  /** Default for {@link #maxTokenLength()}, in characters. */
  public static final int DEFAULT_MAX_TOKEN_LENGTH = 2_048;

  /** Default for {@link #maxHeaderLength()}, in characters. */
  public static final int DEFAULT_MAX_HEADER_LENGTH = 4_096;

  /** Default for {@link #maxUuids()}. */
  public static final int DEFAULT_MAX_UUIDS = 32;

  /** Default for {@link #maxIntervals()}. */
  public static final int DEFAULT_MAX_INTERVALS = 128;

  /** Default for {@link #timeToLive()}. */
  public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofDays(1);

  /** Default for {@link #clockSkew()}. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);

  /** Longer than any token lives; ages are bounded by it so that their sums cannot overflow. */
  private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE / 4);

  private final KeyRing keyRing;
  private final int maxTokenLength;
  private final int maxHeaderLength;
  private final int maxUuids;
  private final int maxIntervals;
  private final Duration timeToLive;
  private final Duration clockSkew;
  private final InstantSource clock;
  private final long skewMillis;
  private final long lifetimeMillis;

  private TokenConfig(Builder builder) {
    this.keyRing = builder.keyRing;
    this.maxTokenLength = builder.maxTokenLength;
    this.maxHeaderLength = builder.maxHeaderLength;
    this.maxUuids = builder.maxUuids;
    this.maxIntervals = builder.maxIntervals;
    this.timeToLive = builder.timeToLive;
    this.clockSkew = builder.clockSkew;
    this.clock = builder.clock;
    this.skewMillis = bounded(clockSkew).toMillis();
    // Truncating the sum, not each part, makes comparing it with a now in whole milliseconds decide
    // as comparing instants does.
    this.lifetimeMillis = bounded(bounded(timeToLive).plus(bounded(clockSkew))).toMillis();
  }

  /** Starts a configuration with the defaults and {@code keyRing}. */
  public static Builder builder(KeyRing keyRing) {
    return new Builder(keyRing);
  }

  /** Keys tokens are signed with and verified against. */
  public KeyRing keyRing() {
    return keyRing;
  }

  /** Longest encoded token, in characters. */
  public int maxTokenLength() {
    return maxTokenLength;
  }

  /** Longest header value of {@code cluster=token} entries, in characters. */
  public int maxHeaderLength() {
    return maxHeaderLength;
  }

  /** Most source UUIDs in one token. */
  public int maxUuids() {
    return maxUuids;
  }

  /** Most GTID intervals in one token. */
  public int maxIntervals() {
    return maxIntervals;
  }

  /** How long after it was issued a token verifies. */
  public Duration timeToLive() {
    return timeToLive;
  }

  /** How far the clocks of the issuing and the verifying instance may disagree. */
  public Duration clockSkew() {
    return clockSkew;
  }

  /** Clock that stamps and ages tokens. */
  public InstantSource clock() {
    return clock;
  }

  /** {@link #clockSkew()} in whole milliseconds. */
  long skewMillis() {
    return skewMillis;
  }

  /** {@link #timeToLive()} plus {@link #clockSkew()}, in whole milliseconds. */
  long lifetimeMillis() {
    return lifetimeMillis;
  }

  private static Duration bounded(Duration duration) {
    return duration.compareTo(FOREVER) > 0 ? FOREVER : duration;
  }

  /** Builds a {@link TokenConfig}; every setter checks its argument at once. */
  public static final class Builder {
    private final KeyRing keyRing;
    private int maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH;
    private int maxHeaderLength = DEFAULT_MAX_HEADER_LENGTH;
    private int maxUuids = DEFAULT_MAX_UUIDS;
    private int maxIntervals = DEFAULT_MAX_INTERVALS;
    private Duration timeToLive = DEFAULT_TIME_TO_LIVE;
    private Duration clockSkew = DEFAULT_CLOCK_SKEW;
    private InstantSource clock = InstantSource.system();

    private Builder(KeyRing keyRing) {
      this.keyRing = Objects.requireNonNull(keyRing);
    }

    /** Longest encoded token, in characters; at least 128. */
    public Builder maxTokenLength(int characters) {
      this.maxTokenLength = atLeast("maxTokenLength", characters, 128);
      return this;
    }

    /** Longest header value, in characters; at least 128. */
    public Builder maxHeaderLength(int characters) {
      this.maxHeaderLength = atLeast("maxHeaderLength", characters, 128);
      return this;
    }

    /** Most source UUIDs in one token; at least 1. */
    public Builder maxUuids(int count) {
      this.maxUuids = atLeast("maxUuids", count, 1);
      return this;
    }

    /** Most GTID intervals in one token; at least 1. */
    public Builder maxIntervals(int count) {
      this.maxIntervals = atLeast("maxIntervals", count, 1);
      return this;
    }

    /** How long after it was issued a token verifies; positive. */
    public Builder timeToLive(Duration timeToLive) {
      if (timeToLive.isNegative() || timeToLive.isZero()) {
        throw new IllegalArgumentException("timeToLive must be positive: " + timeToLive);
      }
      this.timeToLive = timeToLive;
      return this;
    }

    /** How far clocks may disagree; zero or positive. */
    public Builder clockSkew(Duration clockSkew) {
      if (clockSkew.isNegative()) {
        throw new IllegalArgumentException("clockSkew must not be negative: " + clockSkew);
      }
      this.clockSkew = clockSkew;
      return this;
    }

    /** Clock that stamps and ages tokens; the system clock by default. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** Builds the configuration. */
    public TokenConfig build() {
      return new TokenConfig(this);
    }

    private static int atLeast(String name, int value, int minimum) {
      if (value < minimum) {
        throw new IllegalArgumentException(name + " must be at least " + minimum + ": " + value);
      }
      return value;
    }
  }
}

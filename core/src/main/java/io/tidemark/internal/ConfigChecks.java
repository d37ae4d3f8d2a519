package io.tidemark.internal;

import java.time.Duration;
import java.util.Objects;

/** The argument checks the configuration builders of several packages share. */
public final class ConfigChecks {

  private ConfigChecks() {}

  /**
   * Returns {@code value} when it is at least one millisecond.
   *
   * @throws IllegalArgumentException naming the setting otherwise
   */
  public static Duration atLeastOneMilli(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.toMillis() < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 ms: " + value);
    }
    return value;
  }

  /**
   * Returns {@code prefix} when it holds no braces, which would break Redis Cluster hash tags.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String redisKeyPrefix(String prefix) {
    if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
      throw new IllegalArgumentException("keyPrefix must not hold braces: " + prefix);
    }
    return prefix;
  }
}

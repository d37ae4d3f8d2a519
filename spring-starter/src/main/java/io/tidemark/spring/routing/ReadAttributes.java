package io.tidemark.spring.routing;

import io.tidemark.ConsistencyLevel;
import io.tidemark.ReadPolicy;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.spring.ReadYourWrites;
import java.lang.reflect.Method;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringValueResolver;

/**
 * One annotated method's {@link ReadYourWrites} attributes, checked and resolved once: a wrong
 * attribute fails the first call with a message that names the method, not every read.
 *
 * @param name the read's {@code Class.method} in metrics and traces
 * @param timeout the method's own budget, or {@code null} for the configured one
 * @param policy the method's own policy, or {@code null} for the configured one
 * @param level the method's own level, or {@code null} for the configured one
 */
record ReadAttributes(
    String name,
    @Nullable Duration timeout,
    @Nullable ReadPolicy policy,
    String scope,
    String minRevision,
    String[] tables,
    boolean monotonic,
    @Nullable ConsistencyLevel level,
    @Nullable Duration maxStaleness) {

  static ReadAttributes of(
      ReadYourWrites annotation, Method method, String name, StringValueResolver values) {
    Duration timeout = null;
    if (!annotation.timeoutString().isEmpty()) {
      timeout = duration("timeoutString", annotation.timeoutString(), method, values);
    } else if (annotation.timeout() >= 0) {
      timeout = Duration.ofMillis(annotation.timeout());
    }
    if (timeout != null && timeout.isNegative()) {
      throw new IllegalArgumentException(
          "@ReadYourWrites on " + method.toGenericString() + " has a negative timeout: " + timeout);
    }
    ReadPolicy[] policies = annotation.onTimeout();
    if (policies.length > 1) {
      throw new IllegalArgumentException(
          "@ReadYourWrites(onTimeout) on "
              + method.toGenericString()
              + " names more than one policy");
    }
    ConsistencyLevel[] levels = annotation.level();
    if (levels.length > 1) {
      throw new IllegalArgumentException(
          "@ReadYourWrites(level) on " + method.toGenericString() + " names more than one level");
    }
    Duration maxStaleness = null;
    if (!annotation.maxStaleness().isEmpty()) {
      maxStaleness = duration("maxStaleness", annotation.maxStaleness(), method, values);
      if (maxStaleness.isNegative()) {
        throw new IllegalArgumentException(
            "@ReadYourWrites on "
                + method.toGenericString()
                + " has a negative maxStaleness: "
                + maxStaleness);
      }
    }
    return new ReadAttributes(
        name,
        timeout,
        policies.length == 1 ? policies[0] : null,
        annotation.scope(),
        annotation.minRevision(),
        annotation.tables().clone(),
        annotation.monotonic(),
        levels.length == 1 ? levels[0] : null,
        maxStaleness);
  }

  private static Duration duration(
      String attribute, String value, Method method, StringValueResolver values) {
    String text = values.resolveStringValue(value);
    try {
      return DurationStyle.detectAndParse(text == null ? "" : text.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "@ReadYourWrites("
              + attribute
              + " = \""
              + value
              + "\") on "
              + method.toGenericString()
              + " is not a duration such as 250ms or 1s: "
              + text,
          e);
    }
  }

  /** The attributes of a read without an annotation: the configured defaults throughout. */
  static ReadAttributes implicit(String name) {
    return new ReadAttributes(name, null, null, "", "", new String[0], true, null, null);
  }

  /** The options of this read: the defaults overridden by the attributes, within {@code cap}. */
  ReadOptions options(ReadOptions defaults, @Nullable Duration cap) {
    ReadOptions options = defaults;
    Duration budget = timeout != null ? timeout : defaults.timeout();
    if (cap != null && cap.compareTo(budget) < 0) {
      budget = cap.isNegative() ? Duration.ZERO : cap;
    }
    options = options.withTimeout(budget);
    if (policy != null) {
      options = options.withPolicy(policy);
    }
    if (tables.length > 0) {
      options = options.withTables(tables);
    }
    if (!monotonic) {
      options = options.withMonotonic(false);
    }
    if (level != null) {
      options = options.withLevel(level);
    }
    if (maxStaleness != null) {
      options = options.withMaxStaleness(maxStaleness);
    }
    return options;
  }
}

package io.tidemark.spring.autoconfigure;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisServerAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Reads at start whether the scope store's Redis may evict scopes, and says so in one WARN line: a
 * {@code maxmemory} with any policy but {@code noeviction} (every scope key has an expiry, so the
 * {@code volatile-*} policies evict them as well as the {@code allkeys-*} ones). The store stays
 * sound on such a Redis, it tells an evicted scope from an empty one at run time, but sends scopes
 * to the source after each eviction. Reads {@code CONFIG GET}, else {@code INFO memory} (managed
 * Redis services often refuse {@code CONFIG}); when neither answers, the line says what to verify.
 * Never fails the start.
 */
final class RedisEvictionCheck {

  private static final Log log = LogFactory.getLog(RedisEvictionCheck.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** What one node said, or why it could not; a standalone Redis has no node name. */
  record Settings(
      String node,
      @Nullable String policy,
      @Nullable String maxmemory,
      @Nullable String configError,
      @Nullable String infoError) {

    boolean mayEvict() {
      return policy != null
          && maxmemory != null
          && !"noeviction".equals(policy)
          && !"0".equals(maxmemory);
    }
  }

  private RedisEvictionCheck() {}

  /** Checks a standalone or Sentinel-managed Redis. */
  static void check(
      StatefulRedisConnection<String, String> connection, String where, Duration window) {
    report(where, List.of(read("", connection.async())), window);
  }

  /** Checks every primary of a cluster. */
  static void check(
      StatefulRedisClusterConnection<String, String> connection, String where, Duration window) {
    List<Settings> nodes = new ArrayList<>();
    try {
      for (RedisClusterNode node : connection.getPartitions()) {
        if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
          String name = node.getUri().getHost() + ":" + node.getUri().getPort();
          nodes.add(read(name, connection.getConnection(node.getNodeId()).async()));
        }
      }
    } catch (RuntimeException e) {
      nodes.add(new Settings("", null, null, message(e), message(e)));
    }
    report(where, nodes, window);
  }

  /** The node's {@code maxmemory} and policy, from {@code CONFIG GET}, else {@code INFO memory}. */
  static Settings read(String node, RedisServerAsyncCommands<String, String> redis) {
    String policy = null;
    String maxmemory = null;
    String configError = null;
    String infoError = null;
    try {
      Map<String, String> config = await(redis.configGet("maxmemory", "maxmemory-policy"));
      policy = config.get("maxmemory-policy");
      maxmemory = config.get("maxmemory");
    } catch (RuntimeException e) {
      configError = message(e);
    }
    try {
      // Also what the store's scripts need to tell an evicted scope from an empty one.
      String info = await(redis.info("memory"));
      if (policy == null || maxmemory == null) {
        policy = field(info, "maxmemory_policy");
        maxmemory = field(info, "maxmemory");
      }
    } catch (RuntimeException e) {
      infoError = message(e);
    }
    return new Settings(node, policy, maxmemory, configError, infoError);
  }

  /** At most one WARN line per kind of finding, naming the nodes it concerns. */
  static List<String> findings(String where, List<Settings> nodes, Duration window) {
    Map<String, List<String>> evicting = new LinkedHashMap<>();
    List<String> unread = new ArrayList<>();
    List<String> noInfo = new ArrayList<>();
    for (Settings node : nodes) {
      String named = node.node().isEmpty() ? "" : node.node() + ": ";
      if (node.infoError() != null && node.policy() == null) {
        unread.add(named + "CONFIG GET: " + node.configError() + "; INFO: " + node.infoError());
      } else if (node.infoError() != null) {
        noInfo.add(named + node.infoError());
      }
      if (node.mayEvict()) {
        evicting
            .computeIfAbsent(
                "maxmemory-policy " + node.policy() + " with maxmemory " + node.maxmemory(),
                k -> new ArrayList<>())
            .add(node.node());
      }
    }
    String cost =
        "after an eviction, scopes Redis does not hold read from the source, and scopes written"
            + " meanwhile stay dirty, for "
            + describe(window);
    List<String> lines = new ArrayList<>();
    if (!evicting.isEmpty()) {
      List<String> how = new ArrayList<>();
      evicting.forEach(
          (settings, names) ->
              how.add(
                  names.contains("") ? settings : settings + " on " + String.join(", ", names)));
      lines.add(
          "The scope store's Redis at "
              + where
              + " may evict scopes ("
              + String.join("; ", how)
              + "): "
              + cost
              + ". Every scope key has an expiry, so volatile-* policies evict them too. Set"
              + " maxmemory-policy noeviction, or give scopes a Redis of their own.");
    }
    if (!unread.isEmpty()) {
      lines.add(
          "Tidemark could not read the eviction settings of the scope store's Redis at "
              + where
              + " ("
              + String.join("; ", unread)
              + "). Verify that maxmemory-policy is noeviction (or maxmemory 0), else "
              + cost
              + "; and that the Redis user may run INFO, without which scopes Redis does not hold"
              + " read from the source and merges into them fail.");
    } else if (!noInfo.isEmpty()) {
      lines.add(
          "The scope store's Redis at "
              + where
              + " refuses INFO ("
              + String.join("; ", noInfo)
              + "): the store needs it to tell an evicted scope from an empty one, so scopes Redis"
              + " does not hold read from the source and merges into them fail. Allow the Redis"
              + " user INFO (ACL +info).");
    }
    return lines;
  }

  private static void report(String where, List<Settings> nodes, Duration window) {
    for (String line : findings(withoutPassword(where), nodes, window)) {
      log.warn(line);
    }
    if (log.isDebugEnabled()) {
      log.debug(
          "Eviction settings of the scope store's Redis at "
              + withoutPassword(where)
              + ": "
              + nodes);
    }
  }

  /** {@code where} without the user information of a URI in it, which may hold a password. */
  static String withoutPassword(String where) {
    return where.replaceAll("([a-z-]+://)[^@/\\s]*@", "$1");
  }

  private static <T> T await(CompletionStage<T> call) {
    try {
      return call.toCompletableFuture().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException(cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no reply within " + TIMEOUT.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static @Nullable String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return null;
  }

  private static String message(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** {@code 1 h}, {@code 10 min}, {@code 30 s} or {@code 250 ms}. */
  static String describe(Duration time) {
    long millis = time.toMillis();
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + " h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + " min";
    }
    if (millis % 1_000 == 0) {
      return millis / 1_000 + " s";
    }
    return millis + " ms";
  }
}

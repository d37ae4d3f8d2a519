package io.tidemark.cache;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tidemark.internal.RedisCallFailedException;
import io.tidemark.internal.RedisScript;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A {@link VersionedCache} in Redis through Lettuce, shared by every instance: standalone,
 * Sentinel-managed or Cluster (one key per entry, so any slot will do).
 *
 * <p>An entry is one string {@code <version>:v:<value>} or, for a tombstone, {@code <version>:t:}.
 * Writes run a Lua compare-and-set that reads the stored version and writes only when the new one
 * is higher; Redis runs the script to the end before any other command, so no write can slip
 * between the check and the set. Versions stay below 2<sup>53</sup>, where Lua's numbers are exact.
 *
 * <p>Every call waits at most {@link VersionedCacheConfig#commandTimeout()}. A read that fails is a
 * miss and a write that fails reports false; both are counted in {@link #failures()}. A write that
 * timed out may still reach Redis later, still through the compare-and-set. A failed delete leaves
 * the older value readable by reads without a minimum version until it expires; reads that require
 * the deleted version still miss.
 */
public final class RedisVersionedCache<V> implements VersionedCache<V> {

  private static final RedisScript COMPARE_AND_SET =
      new RedisScript(
          """
          local stored = redis.call('GET', KEYS[1])
          if stored then
            local version = tonumber(string.match(stored, '^(%d+):'))
            if version ~= nil and version >= tonumber(ARGV[1]) then
              return 0
            end
          end
          redis.call('SET', KEYS[1], ARGV[1] .. ':' .. ARGV[2] .. ':' .. ARGV[3], 'PX', ARGV[4])
          return 1
          """);

  private final RedisClusterAsyncCommands<String, String> redis;
  private final ValueCodec<V> codec;
  private final VersionedCacheConfig config;
  private final LongAdder failures = new LongAdder();

  private RedisVersionedCache(
      RedisClusterAsyncCommands<String, String> redis,
      ValueCodec<V> codec,
      VersionedCacheConfig config) {
    this.redis = redis;
    this.codec = Objects.requireNonNull(codec, "codec");
    this.config = Objects.requireNonNull(config, "config");
  }

  /** A cache on a standalone or Sentinel-managed Redis. */
  public static <V> RedisVersionedCache<V> create(
      StatefulRedisConnection<String, String> connection,
      ValueCodec<V> codec,
      VersionedCacheConfig config) {
    return new RedisVersionedCache<>(connection.async(), codec, config);
  }

  /** A cache on a Redis Cluster. */
  public static <V> RedisVersionedCache<V> create(
      StatefulRedisClusterConnection<String, String> connection,
      ValueCodec<V> codec,
      VersionedCacheConfig config) {
    return new RedisVersionedCache<>(connection.async(), codec, config);
  }

  @Override
  public boolean put(String key, long version, V value) {
    VersionedCache.checkVersion(version);
    return write(key, new Entry<>(version, Objects.requireNonNull(value, "value")));
  }

  @Override
  public Optional<Versioned<V>> get(String key, long minVersion) {
    return CaffeineVersionedCache.visible(lookup(key), minVersion);
  }

  @Override
  public boolean delete(String key, long version) {
    VersionedCache.checkVersion(version);
    return write(key, Entry.tombstone(version));
  }

  /** Calls that failed or timed out so far. */
  public long failures() {
    return failures.sum();
  }

  /** The stored entry, tombstones included; null when there is none or Redis did not answer. */
  @Nullable Entry<V> lookup(String key) {
    String stored;
    try {
      stored = RedisScript.await(() -> redis.get(redisKey(key)), config.commandTimeout());
    } catch (RedisCallFailedException e) {
      failures.increment();
      return null;
    }
    if (stored == null) {
      return null;
    }
    int first = stored.indexOf(':');
    if (first < 1 || stored.length() < first + 3 || stored.charAt(first + 2) != ':') {
      failures.increment();
      return null;
    }
    long version = Long.parseLong(stored, 0, first, 10);
    return stored.charAt(first + 1) == 't'
        ? Entry.tombstone(version)
        : new Entry<>(version, codec.decode(stored.substring(first + 3)));
  }

  /** Stores {@code entry} unless Redis holds its version or a newer one; false also on failure. */
  boolean write(String key, Entry<V> entry) {
    V value = entry.value();
    String[] keys = {redisKey(key)};
    String ttl =
        Long.toString(
            (value == null ? config.tombstoneTimeToLive() : config.timeToLive()).toMillis());
    try {
      Long stored =
          RedisScript.await(
              () ->
                  COMPARE_AND_SET.<Long>run(
                      redis,
                      ScriptOutputType.INTEGER,
                      keys,
                      Long.toString(entry.version()),
                      value == null ? "t" : "v",
                      value == null ? "" : codec.encode(value),
                      ttl),
              config.commandTimeout());
      return stored != null && stored == 1L;
    } catch (RedisCallFailedException e) {
      failures.increment();
      return false;
    }
  }

  private String redisKey(String key) {
    return config.keyPrefix() + key;
  }

  @Override
  public String toString() {
    return "RedisVersionedCache(" + config.keyPrefix() + ")";
  }
}

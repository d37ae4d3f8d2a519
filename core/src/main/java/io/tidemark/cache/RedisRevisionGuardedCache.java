package io.tidemark.cache;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tidemark.GtidSet;
import io.tidemark.GtidSetFormatException;
import io.tidemark.internal.RedisScript;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RevisionGuardedCache} in Redis through Lettuce, shared by every instance: standalone,
 * Sentinel-managed or Cluster (one key per entry, so any slot will do).
 *
 * <p>An entry is one string {@code <revision>:v:<gtids>;<value>} ({@code <gtids>} the GTID set the
 * value reflects, without line breaks; it holds no {@code ;}) or, for a tombstone, {@code
 * <revision>:t:}. Writes run a Lua compare-and-set that reads the stored revision and writes only
 * when the new one is higher, or, for a value, equal with a different GTID set over a stored value
 * (the set written last wins: at worst a later request misses and reads through, never older).
 * Redis runs the script to the end before any other command, so no write can slip between the check
 * and the set. Revisions stay below 2<sup>53</sup>, where Lua's numbers are exact.
 *
 * <p>Every call waits at most {@link RevisionGuardedCacheConfig#commandTimeout()}. A read that
 * fails is a miss and a write that fails reports false; both are counted in {@link #failures()}. A
 * write that timed out may still reach Redis later, still through the compare-and-set. A failed
 * delete leaves the older value readable by reads without a minimum revision until it expires;
 * reads that require the deleted revision still miss.
 */
final class RedisRevisionGuardedCache<V> extends CacheTier<V> {

  private static final RedisScript COMPARE_AND_SET =
      new RedisScript(
          """
          local entry = ARGV[1] .. ':' .. ARGV[2] .. ':' .. ARGV[3]
          local stored = redis.call('GET', KEYS[1])
          if stored then
            local revision, kind = string.match(stored, '^(%d+):(%a):')
            revision = tonumber(revision)
            if revision ~= nil then
              local new = tonumber(ARGV[1])
              if revision > new then
                return 0
              end
              if revision == new then
                local sameSet = string.sub(stored, 1, #ARGV[1] + 4 + #ARGV[5])
                  == ARGV[1] .. ':v:' .. ARGV[5] .. ';'
                if kind ~= 'v' or ARGV[2] ~= 'v' or sameSet then
                  return 0
                end
              end
            end
          end
          redis.call('SET', KEYS[1], entry, 'PX', ARGV[4])
          return 1
          """);

  private final RedisClusterAsyncCommands<String, String> redis;
  private final ValueCodec<V> codec;
  private final RevisionGuardedCacheConfig config;
  private final LongAdder failures = new LongAdder();

  private RedisRevisionGuardedCache(
      RedisClusterAsyncCommands<String, String> redis,
      ValueCodec<V> codec,
      RevisionGuardedCacheConfig config) {
    this.redis = redis;
    this.codec = Objects.requireNonNull(codec, "codec");
    this.config = Objects.requireNonNull(config, "config");
  }

  /** A cache on a standalone or Sentinel-managed Redis. */
  static <V> RedisRevisionGuardedCache<V> create(
      StatefulRedisConnection<String, String> connection,
      ValueCodec<V> codec,
      RevisionGuardedCacheConfig config) {
    return new RedisRevisionGuardedCache<>(connection.async(), codec, config);
  }

  /** A cache on a Redis Cluster. */
  static <V> RedisRevisionGuardedCache<V> create(
      StatefulRedisClusterConnection<String, String> connection,
      ValueCodec<V> codec,
      RevisionGuardedCacheConfig config) {
    return new RedisRevisionGuardedCache<>(connection.async(), codec, config);
  }

  @Override
  public long failures() {
    return failures.sum();
  }

  @Override
  @Nullable Entry<V> lookup(String key) {
    String stored;
    try {
      stored = RedisScript.await(() -> redis.get(redisKey(key)), config.commandTimeout());
    } catch (RedisScript.CallFailedException e) {
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
    long revision = Long.parseLong(stored, 0, first, 10);
    if (stored.charAt(first + 1) == 't') {
      return Entry.tombstone(revision);
    }
    int setEnd = stored.indexOf(';', first + 3);
    if (setEnd < 0) {
      failures.increment();
      return null;
    }
    GtidSet gtids;
    try {
      gtids = GtidSet.parse(stored.subSequence(first + 3, setEnd));
    } catch (GtidSetFormatException e) {
      failures.increment();
      return null;
    }
    return new Entry<>(revision, codec.decode(stored.substring(setEnd + 1)), gtids);
  }

  @Override
  boolean write(String key, Entry<V> entry) {
    V value = entry.value();
    String gtids = entry.gtids().toSingleLineString();
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
                      Long.toString(entry.revision()),
                      value == null ? "t" : "v",
                      value == null ? "" : gtids + ";" + codec.encode(value),
                      ttl,
                      gtids),
              config.commandTimeout());
      return stored != null && stored == 1L;
    } catch (RedisScript.CallFailedException e) {
      failures.increment();
      return false;
    }
  }

  private String redisKey(String key) {
    return config.keyPrefix() + key;
  }

  @Override
  public String toString() {
    return "RedisRevisionGuardedCache(" + config.keyPrefix() + ")";
  }
}

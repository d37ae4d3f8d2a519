package io.tidemark.scope;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tidemark.GtidSet;
import io.tidemark.GtidSetFormatException;
import io.tidemark.internal.RedisCallFailedException;
import io.tidemark.internal.RedisScript;
import java.util.List;
import java.util.Objects;

/**
 * A {@link ScopeStore} in Redis through Lettuce, shared by every instance that connects to it:
 * standalone, Sentinel-managed or Cluster.
 *
 * <p>A scope is two string keys with one hash tag, so both live in one cluster slot: {@code
 * <prefix>{<scope>}} holds the GTID set as text and {@code <prefix>{<scope>}:dirty} the reason it
 * is dirty, each with its own expiry. {@link #get} reads both with one {@code MGET}.
 *
 * <p>{@link #merge} runs one Lua script that reads the stored set, unions it with the new one
 * interval by interval, and writes it back with a renewed expiry. Redis runs a script to the end
 * before any other command, so concurrent merges from any number of instances serialize and none is
 * lost, in one round trip and without retries (a WATCH/MULTI loop would need a connection per
 * caller and retry under contention). The union merges touching intervals, so the stored set has
 * the same size as the canonical set; past {@link ScopeStoreConfig#maxIntervals()} the script drops
 * the set and marks the scope dirty for the scope's time to live instead, so every merged GTID
 * stays required, or its scope stays on the source, for at least the time to live.
 *
 * <p>Lua numbers are doubles, exact up to 2<sup>53</sup>: a set with a GNO of 16 digits or more is
 * not sent to the script; its scope is marked dirty instead. No MySQL server comes near it.
 *
 * <p>Both scripts publish the scope's key on {@link ScopeStoreConfig#invalidationChannel()} after
 * the write, for {@link NearCacheScopeStore}s; a publish without subscribers costs next to nothing.
 *
 * <p>Every call waits at most {@link ScopeStoreConfig#commandTimeout()}. Build the Lettuce client
 * with {@code ClientOptions.disconnectedBehavior(REJECT_COMMANDS)}, so that calls fail at once
 * while Redis is unreachable instead of queueing until it returns; Lettuce reconnects by itself.
 */
public final class RedisScopeStore implements ScopeStore {

  private static final RedisScript MERGE =
      new RedisScript(
          """
          local sets = {}
          local function parse(text)
            for entry in string.gmatch(text, '[^,]+') do
              local uuid, tsid
              for part in string.gmatch(entry, '[^:]+') do
                if uuid == nil then
                  uuid = part
                  tsid = part
                elseif string.find(part, '^[%a_]') then
                  tsid = uuid .. ':' .. part
                else
                  local s, e = string.match(part, '^(%d+)%-(%d+)$')
                  if s == nil then
                    s = string.match(part, '^(%d+)$')
                    e = s
                  end
                  if s == nil then
                    error('not a GTID interval: ' .. part)
                  end
                  local list = sets[tsid]
                  if list == nil then
                    list = {}
                    sets[tsid] = list
                  end
                  list[#list + 1] = {tonumber(s), tonumber(e)}
                end
              end
            end
          end
          local stored = redis.call('GET', KEYS[1])
          if stored then
            parse(stored)
          end
          parse(ARGV[1])
          local tsids = {}
          for tsid in pairs(sets) do
            tsids[#tsids + 1] = tsid
          end
          table.sort(tsids)
          local out = {}
          local count = 0
          for _, tsid in ipairs(tsids) do
            local list = sets[tsid]
            table.sort(list, function(a, b) return a[1] < b[1] end)
            local merged = {}
            for _, iv in ipairs(list) do
              local last = merged[#merged]
              if last ~= nil and iv[1] <= last[2] + 1 then
                if iv[2] > last[2] then
                  last[2] = iv[2]
                end
              else
                merged[#merged + 1] = {iv[1], iv[2]}
              end
            end
            count = count + #merged
            local text = {tsid}
            for _, iv in ipairs(merged) do
              text[#text + 1] = string.format('%.0f-%.0f', iv[1], iv[2])
            end
            out[#out + 1] = table.concat(text, ':')
          end
          if count > tonumber(ARGV[3]) then
            redis.call('DEL', KEYS[1])
            redis.call('SET', KEYS[2], 'more than ' .. ARGV[3] .. ' GTID intervals', 'PX', ARGV[2])
            redis.call('PUBLISH', ARGV[4], ARGV[5])
            return -1
          end
          redis.call('SET', KEYS[1], table.concat(out, ','), 'PX', ARGV[2])
          redis.call('PUBLISH', ARGV[4], ARGV[5])
          return count
          """);

  private static final RedisScript MARK_DIRTY =
      new RedisScript(
          """
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          redis.call('PUBLISH', ARGV[3], ARGV[4])
          return 1
          """);

  private final RedisClusterAsyncCommands<String, String> redis;
  private final ScopeStoreConfig config;
  private final StoreCounters counters = new StoreCounters();

  private RedisScopeStore(
      RedisClusterAsyncCommands<String, String> redis, ScopeStoreConfig config) {
    this.redis = redis;
    this.config = Objects.requireNonNull(config, "config");
  }

  /** A store on a standalone or Sentinel-managed Redis. */
  public static RedisScopeStore create(
      StatefulRedisConnection<String, String> connection, ScopeStoreConfig config) {
    return new RedisScopeStore(connection.async(), config);
  }

  /** A store on a Redis Cluster; the keys of one scope share a slot. */
  public static RedisScopeStore create(
      StatefulRedisClusterConnection<String, String> connection, ScopeStoreConfig config) {
    return new RedisScopeStore(connection.async(), config);
  }

  @Override
  public ScopeState get(ScopeKey scope) {
    return counters.read(read(scope));
  }

  private ScopeState read(ScopeKey scope) {
    List<KeyValue<String, String>> values;
    try {
      values =
          RedisScript.await(() -> redis.mget(key(scope), dirtyKey(scope)), config.commandTimeout());
    } catch (RedisCallFailedException e) {
      return ScopeState.unknown("scope store unreadable for " + scope + ": " + e.getMessage());
    }
    GtidSet gtids = GtidSet.EMPTY;
    if (values.size() != 2) {
      return ScopeState.unknown("scope store answered " + values.size() + " values for 2 keys");
    }
    if (values.get(0).hasValue()) {
      try {
        gtids = GtidSet.parse(values.get(0).getValue());
      } catch (GtidSetFormatException e) {
        return ScopeState.unknown("unreadable token for " + scope + ": " + e.getMessage());
      }
    }
    return values.get(1).hasValue()
        ? ScopeState.dirty(gtids, values.get(1).getValue())
        : ScopeState.known(gtids);
  }

  @Override
  public boolean merge(ScopeKey scope, GtidSet gtids) {
    Objects.requireNonNull(scope, "scope");
    if (gtids.isEmpty()) {
      return counters.wrote(true);
    }
    String text = gtids.toSingleLineString();
    if (hasLongNumber(text)) {
      return markDirty(scope, "a GNO too large for the scope store");
    }
    try {
      RedisScript.await(
          () ->
              MERGE.<Long>run(
                  redis,
                  ScriptOutputType.INTEGER,
                  new String[] {key(scope), dirtyKey(scope)},
                  text,
                  Long.toString(config.timeToLive().toMillis()),
                  Integer.toString(config.maxIntervals()),
                  config.invalidationChannel(),
                  scope.toString()),
          config.commandTimeout());
      return counters.wrote(true);
    } catch (RedisCallFailedException e) {
      return counters.wrote(false);
    }
  }

  @Override
  public boolean markDirty(ScopeKey scope, String because) {
    Objects.requireNonNull(because, "because");
    try {
      RedisScript.await(
          () ->
              MARK_DIRTY.<Long>run(
                  redis,
                  ScriptOutputType.INTEGER,
                  new String[] {dirtyKey(scope)},
                  because,
                  Long.toString(config.dirtyTimeToLive().toMillis()),
                  config.invalidationChannel(),
                  scope.toString()),
          config.commandTimeout());
      return counters.wrote(true);
    } catch (RedisCallFailedException e) {
      return counters.wrote(false);
    }
  }

  @Override
  public ScopeStoreStats stats() {
    return counters.snapshot();
  }

  /** The key holding the scope's GTID set; its hash tag is the whole scope key. */
  String key(ScopeKey scope) {
    return config.keyPrefix() + '{' + scope + '}';
  }

  String dirtyKey(ScopeKey scope) {
    return key(scope) + ":dirty";
  }

  /** Whether the text holds a number of 16 digits or more, beyond what Lua counts exactly. */
  private static boolean hasLongNumber(String text) {
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      run = c >= '0' && c <= '9' ? run + 1 : 0;
      if (run >= 16) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "RedisScopeStore(" + config.keyPrefix() + ")";
  }
}

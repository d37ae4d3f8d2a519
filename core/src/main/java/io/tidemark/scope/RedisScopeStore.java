package io.tidemark.scope;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tidemark.GtidSet;
import io.tidemark.GtidSetFormatException;
import io.tidemark.internal.RedisScript;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link ScopeStore} in Redis through Lettuce, shared by every instance that connects to it:
 * standalone, Sentinel-managed or Cluster.
 *
 * <p>A scope is one hash, {@code <prefix>{<scope>}}: the GTID set as text and the reason it is
 * dirty, each with the time it ends, and the key expires with the later of the two. Redis drops or
 * evicts the set and the dirty mark together, never one without the other. {@link #get} and both
 * writes are Lua scripts, which Redis runs to the end before any other command, and which take the
 * time from Redis.
 *
 * <p>{@link #merge} reads the stored set, unions it with the new one interval by interval, and
 * writes it back with a renewed expiry: concurrent merges from any number of instances serialize
 * and none is lost, in one round trip and without retries (a WATCH/MULTI loop would need a
 * connection per caller and retry under contention). The union merges touching intervals, so the
 * stored set has the same size as the canonical set; past {@link ScopeStoreConfig#maxIntervals()}
 * the script drops the set and marks the scope dirty for the scope's time to live instead, so every
 * merged GTID stays required, or its scope stays on the source, for at least the time to live. A
 * dirty mark never ends earlier than one already in place.
 *
 * <p><b>Eviction.</b> A Redis with {@code maxmemory} and any policy but {@code noeviction} may
 * evict a scope before it expires; a missing key alone cannot tell an evicted scope from one that
 * was never written. So when a script finds no key, it compares the node's {@code evicted_keys}
 * ({@code INFO stats}) with the count and the time it was first seen, kept in a key without expiry
 * ({@code <prefix>evictions}; on a cluster one per slot, in that slot: {@code
 * <prefix>evictions:<slot>{<tag>}}). Until the larger of the two times to live has passed since a
 * change of the count was first seen, a missing scope may have been evicted: {@link #get} reports
 * it {@link ScopeState.Status#UNKNOWN} and a write marks it dirty for as long, since its earlier
 * GTIDs may be gone. A node that never evicted pays one {@code INFO stats} per missing scope; one
 * that evicts keeps sending new scopes to the source, which is why Redis for scopes should run with
 * {@code maxmemory-policy noeviction} (every scope key has an expiry, so {@code volatile-*}
 * policies evict them too). The check needs the Redis user to be allowed {@code INFO}; without it,
 * reads of missing scopes are unknown and merges into them fail.
 *
 * <p>Lua numbers are doubles, exact up to 2<sup>53</sup>: a set with a GNO of 16 digits or more is
 * not sent to the script; its scope is marked dirty instead. No MySQL server comes near it.
 *
 * <p>Both writes publish the scope's key on {@link ScopeStoreConfig#invalidationChannel()} after
 * the write, for {@link NearCacheScopeStore}s; a publish without subscribers costs next to nothing.
 *
 * <p>Every call waits at most {@link ScopeStoreConfig#commandTimeout()}. Build the Lettuce client
 * with {@code ClientOptions.disconnectedBehavior(REJECT_COMMANDS)}, so that calls fail at once
 * while Redis is unreachable instead of queueing until it returns; Lettuce reconnects by itself.
 */
final class RedisScopeStore implements ScopeStore {

  private static final System.Logger LOG = System.getLogger(RedisScopeStore.class.getName());

  /** The dirty reason of a scope written while Redis may have evicted its earlier GTIDs. */
  static final String EVICTED =
      "Redis evicted keys within the scope time to live: earlier GTIDs of this scope may be gone";

  /**
   * What every script starts with: the time from Redis, the scope's hash read and written whole,
   * and the eviction check of a scope that Redis does not hold.
   */
  private static final String COMMON =
      """
      local function now_ms()
        local t = redis.call('TIME')
        return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      end
      local function ms(n)
        return string.format('%.0f', n)
      end
      -- Whether the key exists, then each part that has not ended: text and end, or false and 0.
      local function load(key, now)
        local h = redis.call('HMGET', key, 'gtids', 'gtids_until', 'dirty', 'dirty_until')
        local gtids, gtids_until, dirty, dirty_until = false, 0, false, 0
        if h[1] and tonumber(h[2]) > now then
          gtids, gtids_until = h[1], tonumber(h[2])
        end
        if h[3] and tonumber(h[4]) > now then
          dirty, dirty_until = h[3], tonumber(h[4])
        end
        return (h[1] or h[3]) ~= false, gtids, gtids_until, dirty, dirty_until
      end
      -- Adds a part and its end to the fields to set, or when it has no text their names to the
      -- fields to delete; returns the later of last and the part's end.
      local function put(fields, gone, name, text, until_ms, last)
        if not text then
          gone[#gone + 1] = name
          gone[#gone + 1] = name .. '_until'
          return last
        end
        fields[#fields + 1] = name
        fields[#fields + 1] = text
        fields[#fields + 1] = name .. '_until'
        fields[#fields + 1] = ms(until_ms)
        return math.max(last, until_ms)
      end
      -- Replaces the scope's hash; it expires with its later part. HSET comes first: a Redis out
      -- of memory refuses the script at its first write that needs memory, with nothing changed.
      local function store(key, now, gtids, gtids_until, dirty, dirty_until)
        local fields, gone = {}, {}
        local last = put(fields, gone, 'gtids', gtids, gtids_until, now)
        last = put(fields, gone, 'dirty', dirty, dirty_until, last)
        if #fields == 0 or last <= now then
          redis.call('DEL', key)
          return
        end
        redis.call('HSET', key, unpack(fields))
        if #gone > 0 then
          redis.call('HDEL', key, unpack(gone))
        end
        redis.call('PEXPIRE', key, ms(last - now))
      end
      -- For a scope this node does not hold: until when it may have been evicted, or nil when the
      -- node evicted nothing within the window. The node's evicted_keys is compared with the count
      -- and the time it was first seen, kept in the watermark key; a new count, a missing
      -- watermark after evictions or a reset of the counter counts as an eviction now.
      local function evicted_until(watermark, now, window)
        local count = string.match(redis.call('INFO', 'stats'), 'evicted_keys:(%d+)')
        if count == nil then
          error('INFO stats names no evicted_keys: cannot tell an evicted scope from an empty one')
        end
        local seen = redis.call('HMGET', watermark, 'count', 'since')
        local since
        if seen[1] == count then
          since = tonumber(seen[2])
        elseif seen[1] == false and count == '0' then
          return nil
        else
          since = now
          redis.call('HSET', watermark, 'count', count, 'since', ms(since))
        end
        if since + window > now then
          return since + window
        end
        return nil
      end
      -- What load gives, and for a scope this node does not hold, what evicted_until gives.
      local function load_or_evicted(key, watermark, now, window)
        local held, gtids, gtids_until, dirty, dirty_until = load(key, now)
        local evicted = nil
        if not held then
          evicted = evicted_until(watermark, now, window)
        end
        return held, gtids, gtids_until, dirty, dirty_until, evicted
      end
      """;

  private static final RedisScript GET =
      new RedisScript(
          COMMON
              + """
              local held, gtids, _, dirty, _, evicted =
                load_or_evicted(KEYS[1], KEYS[2], now_ms(), tonumber(ARGV[1]))
              if held then
                return {gtids, dirty}
              end
              if evicted then
                return {false, false, ms(evicted)}
              end
              return {false, false}
              """);

  private static final RedisScript MERGE =
      new RedisScript(
          COMMON
              + """
              local now = now_ms()
              local _, stored, _, dirty, dirty_until, until_ms =
                load_or_evicted(KEYS[1], KEYS[2], now, tonumber(ARGV[6]))
              local evicted = false
              if until_ms then
                dirty, dirty_until, evicted = ARGV[7], until_ms, true
              end
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
              local gtids_until = now + tonumber(ARGV[2])
              local result = count
              if count > tonumber(ARGV[3]) then
                store(KEYS[1], now, false, 0, 'more than ' .. ARGV[3] .. ' GTID intervals',
                  math.max(dirty_until, gtids_until))
                result = -1
              else
                store(KEYS[1], now, table.concat(out, ','), gtids_until, dirty, dirty_until)
              end
              redis.call('PUBLISH', ARGV[4], ARGV[5])
              if evicted then
                return -2
              end
              return result
              """);

  private static final RedisScript MARK_DIRTY =
      new RedisScript(
          COMMON
              + """
              local now = now_ms()
              local _, gtids, gtids_until, _, dirty_until, until_ms =
                load_or_evicted(KEYS[1], KEYS[2], now, tonumber(ARGV[5]))
              local result = 1
              if until_ms then
                dirty_until, result = until_ms, 2
              end
              store(KEYS[1], now, gtids, gtids_until, ARGV[1],
                math.max(dirty_until, now + tonumber(ARGV[2])))
              redis.call('PUBLISH', ARGV[3], ARGV[4])
              return result
              """);

  private final RedisClusterAsyncCommands<String, String> redis;
  private final ScopeStoreConfig config;
  private final boolean cluster;
  private final String window;
  private final StoreCounters counters = new StoreCounters();
  private final AtomicBoolean evictionReported = new AtomicBoolean();

  private RedisScopeStore(
      RedisClusterAsyncCommands<String, String> redis, ScopeStoreConfig config, boolean cluster) {
    this.redis = redis;
    this.config = Objects.requireNonNull(config, "config");
    this.cluster = cluster;
    this.window = Long.toString(config.longestTimeToLive().toMillis());
  }

  /** A store on a standalone or Sentinel-managed Redis. */
  static RedisScopeStore create(
      StatefulRedisConnection<String, String> connection, ScopeStoreConfig config) {
    return new RedisScopeStore(connection.async(), config, false);
  }

  /** A store on a Redis Cluster; the keys of one scope share a slot. */
  static RedisScopeStore create(
      StatefulRedisClusterConnection<String, String> connection, ScopeStoreConfig config) {
    return new RedisScopeStore(connection.async(), config, true);
  }

  @Override
  public ScopeState get(ScopeKey scope) {
    return counters.read(read(scope));
  }

  private ScopeState read(ScopeKey scope) {
    List<Object> values;
    try {
      values =
          RedisScript.await(
              () ->
                  GET.<List<Object>>run(
                      redis,
                      ScriptOutputType.MULTI,
                      new String[] {key(scope), evictionsKey(scope)},
                      window),
              config.commandTimeout());
    } catch (RedisScript.CallFailedException e) {
      return ScopeState.unknown("scope store unreadable for " + scope + ": " + e.getMessage());
    }
    if (values.size() == 3) {
      reportEviction();
      return ScopeState.unknown(
          "Redis evicted keys within the scope time to live; "
              + scope
              + " may have been one of them");
    }
    if (values.size() != 2) {
      return ScopeState.unknown("scope store answered " + values.size() + " values for " + scope);
    }
    GtidSet gtids = GtidSet.EMPTY;
    if (values.get(0) instanceof String text) {
      try {
        gtids = GtidSet.parse(text);
      } catch (GtidSetFormatException e) {
        return ScopeState.unknown("unreadable token for " + scope + ": " + e.getMessage());
      }
    }
    return values.get(1) instanceof String because
        ? ScopeState.dirty(gtids, because)
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
      Long result =
          RedisScript.await(
              () ->
                  MERGE.<Long>run(
                      redis,
                      ScriptOutputType.INTEGER,
                      new String[] {key(scope), evictionsKey(scope)},
                      text,
                      Long.toString(config.timeToLive().toMillis()),
                      Integer.toString(config.maxIntervals()),
                      config.invalidationChannel(),
                      scope.toString(),
                      window,
                      EVICTED),
              config.commandTimeout());
      if (result != null && result == -2) {
        reportEviction();
      }
      return counters.wrote(true);
    } catch (RedisScript.CallFailedException e) {
      return counters.wrote(false);
    }
  }

  @Override
  public boolean markDirty(ScopeKey scope, String because) {
    Objects.requireNonNull(because, "because");
    try {
      Long result =
          RedisScript.await(
              () ->
                  MARK_DIRTY.<Long>run(
                      redis,
                      ScriptOutputType.INTEGER,
                      new String[] {key(scope), evictionsKey(scope)},
                      because,
                      Long.toString(config.dirtyTimeToLive().toMillis()),
                      config.invalidationChannel(),
                      scope.toString(),
                      window),
              config.commandTimeout());
      if (result != null && result == 2) {
        reportEviction();
      }
      return counters.wrote(true);
    } catch (RedisScript.CallFailedException e) {
      return counters.wrote(false);
    }
  }

  @Override
  public Stats stats() {
    return counters.snapshot();
  }

  /** The hash holding the scope's GTID set and dirty mark; its hash tag is the whole scope key. */
  String key(ScopeKey scope) {
    return config.keyPrefix() + '{' + scope + '}';
  }

  /**
   * The key remembering the node's eviction count and when it was first seen, in the scope's slot:
   * one for a standalone Redis, one per slot on a cluster.
   */
  String evictionsKey(ScopeKey scope) {
    if (!cluster) {
      return config.keyPrefix() + "evictions";
    }
    int slot = SlotHash.getSlot(key(scope));
    return config.keyPrefix() + "evictions:" + slot + '{' + SlotTags.TAGS[slot] + '}';
  }

  /** Says once per store, at the first sign of it, that Redis evicts and what that costs. */
  private void reportEviction() {
    if (evictionReported.compareAndSet(false, true)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Redis evicted keys ({0}): for {1} ms after each eviction is first seen, scopes it does"
              + " not hold read from the source, and scopes written meanwhile stay dirty. Run the"
              + " Redis of the scope store with maxmemory-policy noeviction, or give scopes a Redis"
              + " of their own.",
          this,
          window);
    }
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

  /** For each cluster slot, a short number whose hash is that slot, found once. */
  private static final class SlotTags {

    static final int[] TAGS = find();

    private static int[] find() {
      int[] tags = new int[SlotHash.SLOT_COUNT];
      Arrays.fill(tags, -1);
      int missing = tags.length;
      for (int n = 0; missing > 0; n++) {
        int slot = SlotHash.getSlot(Integer.toString(n));
        if (tags[slot] < 0) {
          tags[slot] = n;
          missing--;
        }
      }
      return tags;
    }
  }
}

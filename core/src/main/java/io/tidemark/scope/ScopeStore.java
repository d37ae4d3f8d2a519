package io.tidemark.scope;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.tidemark.GtidSet;
import java.util.Collection;

/**
 * A place where token scopes live between requests: per {@link ScopeKey}, the union of every GTID
 * set merged under it, kept for a time to live that each merge renews.
 *
 * <p>Every implementation guarantees, and passes one contract test suite for:
 *
 * <ul>
 *   <li>{@link #merge} is an atomic set union: concurrent merges from any number of threads and
 *       instances lose nothing; a scope only grows until it expires.
 *   <li>{@link #get} never reports a scope it could not read, or may have lost before its time to
 *       live (evicted), as empty: it answers {@link ScopeState.Status#UNKNOWN}, and callers take
 *       the source path.
 *   <li>A scope grows no larger than the configured interval limit: past it, the scope is marked
 *       dirty for its time to live instead of being stored weaker. A dirty mark never ends one that
 *       lasts longer.
 *   <li>No call blocks longer than the configured command timeout, and none throws for a failure of
 *       the backing store; failures are counted in {@link #stats()}.
 * </ul>
 *
 * <p>Three kinds are made here: {@link #redis} shares scopes between instances (standalone,
 * Sentinel-managed or Cluster), {@link #nearCache} keeps a copy in front of it, and {@link
 * #caffeine} keeps scopes in one instance.
 */
public interface ScopeStore extends AutoCloseable {

  /** What the store knows about {@code scope}; {@link ScopeState#EMPTY} when nothing was merged. */
  ScopeState get(ScopeKey scope);

  /**
   * What reads under all of {@code scopes} need: their tokens {@linkplain ScopeState#and combined}.
   */
  default ScopeState get(Collection<ScopeKey> scopes) {
    ScopeState combined = ScopeState.EMPTY;
    for (ScopeKey scope : scopes) {
      combined = combined.and(get(scope));
    }
    return combined;
  }

  /**
   * Adds {@code gtids} to the scope's token and renews its time to live.
   *
   * @return whether the merge is known to be stored; when not, the caller's header token still
   *     carries the write, but other instances may not see it through this scope (a merge that
   *     timed out may still be applied later, which only adds)
   */
  boolean merge(ScopeKey scope, GtidSet gtids);

  /**
   * Marks the scope dirty, so that reads under it take the source path on every instance for the
   * configured dirty time to live: a write under it committed without a captured GTID.
   *
   * @return whether the mark is known to be stored
   */
  boolean markDirty(ScopeKey scope, String because);

  /** Counts of reads, writes and failures so far. */
  Stats stats();

  /** Stops what the store runs beyond its calls (a near cache's subscription); connections stay. */
  @Override
  default void close() {}

  /** A store in this instance's memory; only the time to live, interval limit and ticker apply. */
  static ScopeStore caffeine(ScopeStoreConfig config) {
    return CaffeineScopeStore.create(config);
  }

  /** A store on a standalone or Sentinel-managed Redis. */
  static ScopeStore redis(
      StatefulRedisConnection<String, String> connection, ScopeStoreConfig config) {
    return RedisScopeStore.create(connection, config);
  }

  /** A store on a Redis Cluster; the keys of one scope share a slot. */
  static ScopeStore redis(
      StatefulRedisClusterConnection<String, String> connection, ScopeStoreConfig config) {
    return RedisScopeStore.create(connection, config);
  }

  /**
   * A copy in this instance in front of {@code shared}, dropped when Redis announces a change on
   * {@code invalidations}, a pub/sub connection of its own (from {@code
   * RedisClient.connectPubSub()} or {@code RedisClusterClient.connectPubSub()}); the store
   * subscribes it and unsubscribes on {@link #close()}. A copy is served for at most {@link
   * ScopeStoreConfig#localTimeToLive()}, and only while the subscription is confirmed.
   *
   * @throws IllegalArgumentException when {@code shared} was not made by {@link #redis}
   */
  static ScopeStore nearCache(
      ScopeStore shared,
      StatefulRedisPubSubConnection<String, String> invalidations,
      ScopeStoreConfig config) {
    if (!(shared instanceof RedisScopeStore redis)) {
      throw new IllegalArgumentException(
          "a near cache fronts a store made by ScopeStore.redis, not " + shared);
    }
    return NearCacheScopeStore.create(redis, invalidations, config);
  }

  /**
   * Counts of what a {@link ScopeStore} did since it was created.
   *
   * @param reads scope reads
   * @param unknownReads reads that could not tell the scope's token (timeout, connection down,
   *     unreadable value, a scope Redis may have evicted) and reported {@link
   *     ScopeState.Status#UNKNOWN}
   * @param writes merges and dirty marks
   * @param failedWrites merges and dirty marks that were not stored
   */
  record Stats(long reads, long unknownReads, long writes, long failedWrites) {}
}

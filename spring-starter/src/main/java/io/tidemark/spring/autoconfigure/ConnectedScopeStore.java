package io.tidemark.spring.autoconfigure;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.tidemark.GtidSet;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeState;
import io.tidemark.scope.ScopeStore;
import io.tidemark.scope.ScopeStoreConfig;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The scope store on a standalone, Sentinel-managed or cluster Redis, optionally with a near cache
 * kept fresh by pub/sub; owns its Lettuce client (not the client resources it may share). Says at
 * start when that Redis may evict scopes ({@link RedisEvictionCheck}).
 */
final class ConnectedScopeStore implements ScopeStore, AutoCloseable {

  private final AbstractRedisClient client;
  private final ScopeStore store;

  private ConnectedScopeStore(AbstractRedisClient client, ScopeStore store) {
    this.client = client;
    this.store = store;
  }

  /**
   * Connects to the store; with {@code nearCache}, repeated reads of a scope are answered from a
   * local copy that another instance's merge invalidates by pub/sub, which can arrive after the
   * client's next request to this instance.
   */
  static ConnectedScopeStore connect(String uri, ScopeStoreConfig config, boolean nearCache) {
    RedisClient client;
    try {
      client = RedisClient.create(RedisURI.create(uri));
    } catch (IllegalArgumentException e) {
      throw new TidemarkStartupException(
          "tidemark.scope.redis-uri is not a Redis URI: " + e.getMessage(),
          "Use redis://host:6379 or redis-sentinel://host:26379#primary-name.");
    }
    return connect(client, config, nearCache, "tidemark.scope.redis-uri " + uri);
  }

  /** Connects to the store through {@code client}, a standalone or Sentinel client. */
  static ConnectedScopeStore connect(
      RedisClient client, ScopeStoreConfig config, boolean nearCache, String where) {
    client.setOptions(rejectWhileDisconnected(ClientOptions.builder()).build());
    return connected(
        client,
        () -> {
          StatefulRedisConnection<String, String> connection = client.connect();
          RedisEvictionCheck.check(connection, where, config.longestTimeToLive());
          return ScopeStore.redis(connection, config);
        },
        nearCache ? client::connectPubSub : null,
        config,
        where);
  }

  /** Connects to the store on a Redis Cluster through {@code client}. */
  static ConnectedScopeStore connect(
      RedisClusterClient client, ScopeStoreConfig config, boolean nearCache, String where) {
    client.setOptions(rejectWhileDisconnected(ClusterClientOptions.builder()).build());
    return connected(
        client,
        () -> {
          StatefulRedisClusterConnection<String, String> connection = client.connect();
          RedisEvictionCheck.check(connection, where, config.longestTimeToLive());
          return ScopeStore.redis(connection, config);
        },
        nearCache ? client::connectPubSub : null,
        config,
        where);
  }

  /** A store call must fail at once while Redis is away, so that reads take the source path. */
  private static <B extends ClientOptions.Builder> B rejectWhileDisconnected(B options) {
    options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    return options;
  }

  /** The store, with a near cache kept fresh by {@code invalidations} when there are some. */
  private static ConnectedScopeStore connected(
      AbstractRedisClient client,
      Supplier<ScopeStore> shared,
      @Nullable Supplier<? extends StatefulRedisPubSubConnection<String, String>> invalidations,
      ScopeStoreConfig config,
      String where) {
    try {
      ScopeStore store = shared.get();
      return new ConnectedScopeStore(
          client,
          invalidations == null ? store : ScopeStore.nearCache(store, invalidations.get(), config));
    } catch (RuntimeException e) {
      client.shutdown();
      throw new TidemarkStartupException(
          "Tidemark could not connect to the scope store at "
              + RedisEvictionCheck.withoutPassword(where)
              + ": "
              + e.getMessage(),
          "Check the Redis settings and that Redis is running, or set tidemark.scope.store=NONE.");
    }
  }

  @Override
  public ScopeState get(ScopeKey scope) {
    return store.get(scope);
  }

  @Override
  public boolean merge(ScopeKey scope, GtidSet gtids) {
    return store.merge(scope, gtids);
  }

  @Override
  public boolean markDirty(ScopeKey scope, String because) {
    return store.markDirty(scope, because);
  }

  @Override
  public ScopeStore.Stats stats() {
    return store.stats();
  }

  @Override
  public void close() {
    store.close();
    client.shutdown();
  }
}

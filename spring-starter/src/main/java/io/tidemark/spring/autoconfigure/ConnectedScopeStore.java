package io.tidemark.spring.autoconfigure;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tidemark.GtidSet;
import io.tidemark.scope.NearCacheScopeStore;
import io.tidemark.scope.RedisScopeStore;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeState;
import io.tidemark.scope.ScopeStore;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.scope.ScopeStoreStats;

/**
 * The scope store on a standalone or Sentinel-managed Redis ({@code redis://}, {@code
 * redis-sentinel://}), optionally with a near cache kept fresh by pub/sub; owns its Lettuce client.
 */
final class ConnectedScopeStore implements ScopeStore, AutoCloseable {

  private final RedisClient client;
  private final ScopeStore store;

  private ConnectedScopeStore(RedisClient client, ScopeStore store) {
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
    // A store call must fail at once while Redis is away, so that reads take the source path.
    client.setOptions(
        ClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    try {
      StatefulRedisConnection<String, String> connection = client.connect();
      RedisScopeStore shared = RedisScopeStore.create(connection, config);
      return new ConnectedScopeStore(
          client,
          nearCache ? NearCacheScopeStore.create(shared, client.connectPubSub(), config) : shared);
    } catch (RuntimeException e) {
      client.shutdown();
      throw new TidemarkStartupException(
          "Tidemark could not connect to the scope store at " + uri + ": " + e.getMessage(),
          "Check tidemark.scope.redis-uri and that Redis is running, or set"
              + " tidemark.scope.store=NONE.");
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
  public ScopeStoreStats stats() {
    return store.stats();
  }

  @Override
  public void close() {
    if (store instanceof NearCacheScopeStore near) {
      near.close();
    }
    client.shutdown();
  }
}

package io.tidemark.spring.docs;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.tidemark.ConsistencyContext;
import io.tidemark.cache.CaffeineVersionedCache;
import io.tidemark.cache.VersionedCacheConfig;
import io.tidemark.spring.VersionGuardedCacheManager;
import io.tidemark.store.RedisTokenStore;
import io.tidemark.store.ScopeKey;
import io.tidemark.store.TokenStore;
import io.tidemark.store.TokenStoreConfig;
import java.util.List;
import java.util.Set;
import org.springframework.cache.CacheManager;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;

/** Token scopes and guarded caches. */
class ScopeSamples {

  /** Needs Redis: compiled only. */
  static void redisScopes(String sessionId, ConsistencyContext.Scope scope) {
    // tag::redis-scopes[]
    RedisClient client = RedisClient.create("redis://redis:6379"); // Sentinel URIs work too
    client.setOptions(
        ClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    TokenStore scopes = RedisTokenStore.create(client.connect(), TokenStoreConfig.ofDefaults());

    scopes.merge(ScopeKey.session(sessionId), scope.context().gtids()); // after the writes
    scopes
        .get(List.of(ScopeKey.session(sessionId), ScopeKey.object("order", "101")))
        .applyTo(ConsistencyContext.current()); // before the reads
    // end::redis-scopes[]
  }

  // tag::cache-manager[]
  @Bean
  CacheManager cacheManager() {
    return new VersionGuardedCacheManager(
        new ConcurrentMapCacheManager(),
        Set.of("orders"),
        name -> CaffeineVersionedCache.create(VersionedCacheConfig.ofDefaults()));
  }
  // end::cache-manager[]
}

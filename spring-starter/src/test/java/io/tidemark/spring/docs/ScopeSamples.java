package io.tidemark.spring.docs;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.tidemark.ConsistencyContext;
import io.tidemark.cache.RevisionGuardedCache;
import io.tidemark.cache.RevisionGuardedCacheConfig;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.spring.RevisionGuardedCacheManager;
import java.util.List;
import java.util.Set;
import org.springframework.cache.CacheManager;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;

/** Token scopes and guarded caches. */
class ScopeSamples {

  /** Needs Redis: compiled only. */
  static void redisScopes(String sessionId, ConsistencyContext.Binding binding) {
    // tag::redis-scopes[]
    RedisClient client = RedisClient.create("redis://redis:6379"); // Sentinel URIs work too
    client.setOptions(
        ClientOptions.builder()
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
    ScopeStore scopes = ScopeStore.redis(client.connect(), ScopeStoreConfig.defaults());

    scopes.merge(ScopeKey.session(sessionId), binding.context().gtids()); // after the writes
    scopes
        .get(List.of(ScopeKey.session(sessionId), ScopeKey.object("order", "101")))
        .applyTo(ConsistencyContext.current()); // before the reads
    // end::redis-scopes[]
  }

  // tag::cache-manager[]
  @Bean
  CacheManager cacheManager() {
    return new RevisionGuardedCacheManager(
        new ConcurrentMapCacheManager(),
        Set.of("orders"),
        name -> RevisionGuardedCache.caffeine(RevisionGuardedCacheConfig.defaults()));
  }
  // end::cache-manager[]
}

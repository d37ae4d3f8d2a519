package io.tidemark.spring.autoconfigure;

import io.tidemark.scope.ScopeStoreConfig;

/** Connects the scope store to a Redis configured elsewhere than {@code tidemark.scope.*}. */
interface RedisConnector {

  ConnectedScopeStore connect(ScopeStoreConfig config, boolean nearCache);
}

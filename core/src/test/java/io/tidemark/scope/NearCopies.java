package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import java.time.Duration;

/** A near cache serves copies only once its subscription is confirmed, some time after start. */
final class NearCopies {

  private NearCopies() {}

  /** Reads {@code scope} until {@code near} serves a read from its copy; fails after 10 s. */
  static void awaitCopyInUse(NearCacheScopeStore near, ScopeKey scope) {
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(10),
                () -> {
                  long before = near.localHits();
                  near.get(scope);
                  near.get(scope);
                  return near.localHits() > before;
                }))
        .as("copy in use")
        .isTrue();
  }

  /** {@code config} with copies that never expire on their own: only a message refreshes them. */
  static ScopeStoreConfig neverExpiring(ScopeStoreConfig config) {
    return config.toBuilder().ticker(new FakeTicker()).localTimeToLive(Duration.ofDays(1)).build();
  }

  /** Whether {@code near} answers {@code scope} with {@code gtids} within 5 s. */
  static boolean eventuallyServes(NearCacheScopeStore near, ScopeKey scope, GtidSet gtids) {
    return RedisClients.eventually(
        Duration.ofSeconds(5), () -> near.get(scope).gtids().equals(gtids));
  }
}

package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

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
}

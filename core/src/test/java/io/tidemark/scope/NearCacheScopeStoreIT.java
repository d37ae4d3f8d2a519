package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import io.tidemark.RedisClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract for Caffeine copies in front of a standalone Redis, and the invalidations. */
class NearCacheScopeStoreIT extends ScopeStoreContract {

  @RegisterExtension static final RedisClients clients = new RedisClients();

  @Override
  NearCacheScopeStore store(ScopeStoreConfig config) {
    NearCacheScopeStore near =
        NearCacheScopeStore.create(
            RedisScopeStore.create(clients.connect(), config), clients.connectPubSub(), config);
    // The copies are used once the subscription is confirmed.
    NearCopies.awaitCopyInUse(near, freshScope());
    return near;
  }

  @Test
  void anotherInstancesMergeReachesTheCopyByInvalidation() {
    ScopeStoreConfig frozen = NearCopies.neverExpiring(config());
    NearCacheScopeStore first = store(frozen);
    NearCacheScopeStore second = store(frozen);
    ScopeKey scope = freshScope();
    first.merge(scope, GtidSet.parse(A + ":1"));
    assertThat(second.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1"));
    // The merge's own message may reach the second store after its first read, which then keeps
    // no copy; the read after that does.
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(5),
                () -> {
                  long hits = second.localHits();
                  boolean same = second.get(scope).gtids().equals(GtidSet.parse(A + ":1"));
                  return same && second.localHits() == hits + 1;
                }))
        .as("a copy is served from memory")
        .isTrue();

    first.merge(scope, GtidSet.parse(A + ":2"));
    assertThat(NearCopies.eventuallyServes(second, scope, GtidSet.parse(A + ":1-2"))).isTrue();
    first.markDirty(scope, "capture failed");
    assertThat(
            RedisClients.eventually(
                Duration.ofSeconds(5), () -> second.get(scope).requiresSource()))
        .isTrue();
  }

  @Test
  void aLostInvalidationLeavesACopyBehindForAtMostTheLocalTimeToLive() {
    FakeTicker ticker = new FakeTicker();
    ScopeStoreConfig listening =
        config().toBuilder().ticker(ticker).localTimeToLive(Duration.ofSeconds(1)).build();
    NearCacheScopeStore second = store(listening);
    // The first instance announces on a channel nobody hears: every message is lost.
    ScopeStore first =
        RedisScopeStore.create(
            clients.connect(), listening.toBuilder().invalidationChannel("lost").build());
    ScopeKey scope = freshScope();
    first.merge(scope, GtidSet.parse(A + ":1"));
    assertThat(second.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1"));
    first.merge(scope, GtidSet.parse(A + ":2"));

    ticker.advance(Duration.ofMillis(999));
    assertThat(second.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1"));
    ticker.advance(Duration.ofMillis(1));
    assertThat(second.get(scope).gtids()).isEqualTo(GtidSet.parse(A + ":1-2"));
  }
}

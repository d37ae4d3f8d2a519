package io.tidemark.scope;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.tidemark.GtidSet;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * A {@link ScopeStore} that answers scope reads from a Caffeine copy in front of a {@link
 * RedisScopeStore}, dropping a scope's copy when Redis announces a change to it.
 *
 * <p>What it guarantees on top of the shared store: a copy is served only while the invalidation
 * subscription is connected and confirmed, and for at most {@link
 * ScopeStoreConfig#localTimeToLive()}; every disconnect of the client drops all copies and stops
 * serving them until Redis confirms the subscription again; a Redis read that an invalidation
 * overtook is not kept (the stale-set race: each key has a generation, bumped before its copy is
 * dropped, and a read is kept only if the generation did not move while it ran); this instance's
 * own merges drop its copy at once. A merge on another instance reaches this one as a pub/sub
 * message, which Redis sends at the moment it answers the merging instance, so it normally arrives
 * long before that client's next request; a message that is lost anyway leaves this instance one
 * local time to live behind for that scope. That window is the price of skipping the Redis read:
 * choose {@link RedisScopeStore} alone where it is not acceptable.
 */
final class NearCacheScopeStore implements ScopeStore {

  private static final int STRIPES = 64;

  private final ScopeStore shared;
  private final Cache<ScopeKey, ScopeState> copies;
  private final BooleanSupplier subscribed;
  private final AtomicLongArray generations = new AtomicLongArray(STRIPES);
  private final AtomicLong epoch = new AtomicLong();
  private final LongAdder localHits = new LongAdder();
  private final StoreCounters counters = new StoreCounters();
  private final Runnable unsubscribe;

  NearCacheScopeStore(
      ScopeStore shared,
      ScopeStoreConfig config,
      BooleanSupplier subscribed,
      Runnable unsubscribe) {
    this.shared = shared;
    this.subscribed = subscribed;
    this.unsubscribe = unsubscribe;
    this.copies =
        Caffeine.newBuilder()
            .ticker(config.ticker()::read)
            .expireAfterWrite(config.localTimeToLive())
            .build();
  }

  /**
   * A near cache in front of {@code shared}, listening for changes on {@code invalidations}, a
   * pub/sub connection of its own (from {@code RedisClient.connectPubSub()} or {@code
   * RedisClusterClient.connectPubSub()}); the store subscribes it and unsubscribes on {@link
   * #close()}.
   */
  static NearCacheScopeStore create(
      RedisScopeStore shared,
      StatefulRedisPubSubConnection<String, String> invalidations,
      ScopeStoreConfig config) {
    Objects.requireNonNull(config, "config");
    String channel = config.invalidationChannel();
    AtomicBoolean confirmed = new AtomicBoolean();
    AtomicBoolean resubscribing = new AtomicBoolean(true);
    NearCacheScopeStore[] store = {null};
    RedisPubSubAdapter<String, String> listener =
        new RedisPubSubAdapter<>() {
          @Override
          public void message(String from, String scope) {
            NearCacheScopeStore near = store[0];
            if (near != null && from.equals(channel)) {
              near.invalidate(scopeOrNull(scope));
            }
          }

          @Override
          public void subscribed(String to, long count) {
            // After a reconnect Lettuce subscribes again; what changed meanwhile was not heard.
            NearCacheScopeStore near = store[0];
            if (near != null) {
              near.invalidateAll();
            }
            confirmed.set(true);
            resubscribing.set(false);
          }

          @Override
          public void unsubscribed(String from, long count) {
            confirmed.set(false);
            NearCacheScopeStore near = store[0];
            if (near != null) {
              near.invalidateAll();
            }
          }
        };
    Disposable[] disconnects = {null};
    NearCacheScopeStore near =
        new NearCacheScopeStore(
            shared,
            config,
            () -> {
              if (!invalidations.isOpen()) {
                return false;
              }
              if (confirmed.get()) {
                return true;
              }
              // A disconnect somewhere on this client cleared the flag; SUBSCRIBE again (Redis
              // confirms even an existing subscription) to learn that this connection listens.
              if (resubscribing.compareAndSet(false, true)) {
                invalidations.async().subscribe(channel);
              }
              return false;
            },
            () -> {
              invalidations.removeListener(listener);
              Disposable d = disconnects[0];
              if (d != null) {
                d.dispose();
              }
              invalidations.async().unsubscribe(channel);
            });
    store[0] = near;
    disconnects[0] =
        invalidations
            .getResources()
            .eventBus()
            .get()
            .filter(DisconnectedEvent.class::isInstance)
            .subscribe(
                event -> {
                  confirmed.set(false);
                  resubscribing.set(false);
                  near.invalidateAll();
                });
    invalidations.addListener(listener);
    invalidations.async().subscribe(channel);
    return near;
  }

  @Override
  public ScopeState get(ScopeKey scope) {
    ScopeState copy = copies.getIfPresent(scope);
    if (copy != null && subscribed.getAsBoolean()) {
      localHits.increment();
      return counters.read(copy);
    }
    long epochBefore = epoch.get();
    long generationBefore = generations.get(stripe(scope));
    ScopeState token = shared.get(scope);
    if (token.status() != ScopeState.Status.UNKNOWN && subscribed.getAsBoolean()) {
      copies.put(scope, token);
      // Invalidations bump the generation before dropping copies: if one ran during the read or
      // the put, this copy may predate it and must go.
      if (epoch.get() != epochBefore || generations.get(stripe(scope)) != generationBefore) {
        copies.asMap().remove(scope, token);
      }
    }
    return counters.read(token);
  }

  @Override
  public boolean merge(ScopeKey scope, GtidSet gtids) {
    boolean stored = shared.merge(scope, gtids);
    invalidate(scope);
    return counters.wrote(stored);
  }

  @Override
  public boolean markDirty(ScopeKey scope, String because) {
    boolean stored = shared.markDirty(scope, because);
    invalidate(scope);
    return counters.wrote(stored);
  }

  @Override
  public Stats stats() {
    return counters.snapshot();
  }

  /** Reads answered from the local copy without asking Redis. */
  long localHits() {
    return localHits.sum();
  }

  /** Drops the local copy of {@code scope}, or of every scope when null. */
  void invalidate(@Nullable ScopeKey scope) {
    if (scope == null) {
      invalidateAll();
      return;
    }
    generations.incrementAndGet(stripe(scope));
    copies.invalidate(scope);
  }

  void invalidateAll() {
    epoch.incrementAndGet();
    copies.invalidateAll();
  }

  /** Stops listening; the shared store's connection stays open. */
  @Override
  public void close() {
    unsubscribe.run();
    invalidateAll();
  }

  private static int stripe(ScopeKey scope) {
    return (scope.hashCode() & Integer.MAX_VALUE) % STRIPES;
  }

  private static @Nullable ScopeKey scopeOrNull(String text) {
    try {
      return ScopeKey.of(text);
    } catch (IllegalArgumentException e) {
      // Not a key this version writes: drop everything rather than guess.
      return null;
    }
  }

  @Override
  public String toString() {
    return "NearCacheScopeStore(" + copies.estimatedSize() + " copies in front of " + shared + ")";
  }
}

package io.tidemark.spring;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.cache.CachedValue;
import io.tidemark.cache.RevisionGuardedCache;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.cache.Cache;
import org.springframework.cache.support.SimpleValueWrapper;

/**
 * A Spring {@link Cache} over a {@link RevisionGuardedCache}: a put of a {@link Revisioned} value
 * is stored only when it is newer than what the key holds (value or tombstone), so a slow reader's
 * old value never replaces a newer one. Keys are their {@code String.valueOf}; {@code null} values
 * are not cached.
 *
 * <p>Token-aware: every value is stored with the GTIDs of the current {@link ConsistencyContext}
 * (after a write, the request's token including that commit; after a read-through, the token the
 * read waited for, not what its replica applied after the query), and a lookup under a context with
 * GTIDs accepts only an entry whose set contains them, else it reads through and stores the fresher
 * value. A dirty context (a write that escaped capture) never takes a cached value. Without a
 * context, or with an empty one, lookups behave as a plain revision-guarded cache. An entry whose
 * GTIDs a failover lost (as the application's reader found or its topology saw) is never served:
 * its value may be gone from the database.
 */
final class SpringRevisionGuardedCache implements Cache {

  private final String name;
  private final RevisionGuardedCache<Object> store;
  private final Supplier<GtidSet> lost;

  /**
   * @param lost GTIDs known lost in a failover: an entry that reflects any of them holds a value
   *     the database may no longer have, and is never served
   */
  SpringRevisionGuardedCache(
      String name, RevisionGuardedCache<Object> store, Supplier<GtidSet> lost) {
    this.name = name;
    this.store = store;
    this.lost = lost;
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public Object getNativeCache() {
    return store;
  }

  @Override
  public @Nullable ValueWrapper get(Object key) {
    return lookup(key).map(v -> new SimpleValueWrapper(v.value())).orElse(null);
  }

  @Override
  public <T> @Nullable T get(Object key, @Nullable Class<T> type) {
    Object value = lookup(key).map(CachedValue::value).orElse(null);
    if (value != null && type != null && !type.isInstance(value)) {
      throw new IllegalStateException(
          "cached value for " + key + " is a " + value.getClass().getName() + ", not " + type);
    }
    @SuppressWarnings("unchecked")
    T typed = (T) value;
    return typed;
  }

  /**
   * The cached value, else the loaded one, stored if newer; when a newer value was stored in the
   * meantime, that one is returned: a caller never gets an older revision than the cache holds.
   */
  @Override
  public <T> @Nullable T get(Object key, Callable<T> loader) {
    Optional<CachedValue<Object>> cached = lookup(key);
    if (cached.isPresent()) {
      @SuppressWarnings("unchecked")
      T value = (T) cached.get().value();
      return value;
    }
    T loaded;
    try {
      loaded = loader.call();
    } catch (Exception e) {
      throw new ValueRetrievalException(key, loader, e);
    }
    if (loaded == null || store.put(key(key), revision(loaded), loaded, reflected())) {
      return loaded;
    }
    Optional<CachedValue<Object>> newer =
        store.get(key(key), revision(loaded), contextGtids(), lost());
    @SuppressWarnings("unchecked")
    T value = newer.map(v -> (T) v.value()).orElse(loaded);
    return value;
  }

  @Override
  public void put(Object key, @Nullable Object value) {
    if (value != null) {
      store.put(key(key), revision(value), value, reflected());
    }
  }

  /** The entry the current context may take; none for a dirty context. */
  private Optional<CachedValue<Object>> lookup(Object key) {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    if (context != null && context.isDirty()) {
      return Optional.empty();
    }
    return store.get(key(key), 0, contextGtids(), lost());
  }

  /** What a served value must not reflect: writes lost in a failover, as known here or told. */
  private GtidSet lost() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    GtidSet known = lost.get();
    return context == null ? known : known.union(context.lost());
  }

  /** The current context's GTIDs: what a cached value must reflect to serve it. */
  private static GtidSet contextGtids() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    return context == null ? GtidSet.EMPTY : context.gtids();
  }

  /**
   * What a value stored now reflects at least: the context's GTIDs that its reads waited for (or
   * ran on the source) and its captured writes, never what a replica applied after the query.
   */
  private static GtidSet reflected() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    return context == null ? GtidSet.EMPTY : context.reflected();
  }

  @Override
  public @Nullable ValueWrapper putIfAbsent(Object key, @Nullable Object value) {
    ValueWrapper existing = get(key);
    if (existing == null) {
      put(key, value);
    }
    return existing;
  }

  /**
   * Leaves a tombstone one past the revision the key holds: an eviction stands for a change the
   * cache was not told the revision of, so the evicted revision and the one right after are both
   * refused (the key is read from the database until a later revision is put or the tombstone
   * expires). With nothing cached there is no revision to go by and nothing is refused: evict with
   * {@link #evict(Object, long)}, or put the new value ({@code @CachePut}), to be sure.
   */
  @Override
  public void evict(Object key) {
    store
        .get(key(key))
        .filter(current -> current.revision() < RevisionGuardedCache.MAX_REVISION)
        .ifPresent(current -> store.delete(key(key), current.revision() + 1));
  }

  /** Leaves a tombstone at {@code revision}: older puts of the key are refused. */
  void evict(Object key, long revision) {
    store.delete(key(key), revision);
  }

  /**
   * @throws UnsupportedOperationException always: a revision-guarded cache is emptied only by
   *     deletions with a revision, or by expiry
   */
  @Override
  public void clear() {
    throw new UnsupportedOperationException(
        "cache "
            + name
            + " is revision-guarded: evict keys with their revision instead of clearing");
  }

  private static String key(Object key) {
    return String.valueOf(key);
  }

  private long revision(Object value) {
    if (value instanceof Revisioned revisioned) {
      return revisioned.revision();
    }
    throw new IllegalArgumentException(
        "cache "
            + name
            + " is revision-guarded: its values must implement "
            + Revisioned.class.getName()
            + ", not "
            + value.getClass().getName());
  }
}

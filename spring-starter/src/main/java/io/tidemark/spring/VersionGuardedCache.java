package io.tidemark.spring;

import io.tidemark.cache.Versioned;
import io.tidemark.cache.VersionedCache;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.springframework.cache.Cache;
import org.springframework.cache.support.SimpleValueWrapper;

/**
 * A Spring {@link Cache} over a {@link VersionedCache}: a put of a {@link Revisioned} value is
 * stored only when it is newer than what the key holds (value or tombstone), so a slow reader's old
 * value never replaces a newer one. Keys are their {@code String.valueOf}; {@code null} values are
 * not cached.
 */
final class VersionGuardedCache implements Cache {

  private final String name;
  private final VersionedCache<Object> store;

  VersionGuardedCache(String name, VersionedCache<Object> store) {
    this.name = name;
    this.store = store;
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
    return store.get(key(key)).map(v -> new SimpleValueWrapper(v.value())).orElse(null);
  }

  @Override
  public <T> @Nullable T get(Object key, @Nullable Class<T> type) {
    Object value = store.get(key(key)).map(Versioned::value).orElse(null);
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
    Optional<Versioned<Object>> cached = store.get(key(key));
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
    if (loaded == null || store.put(key(key), revision(loaded), loaded)) {
      return loaded;
    }
    Optional<Versioned<Object>> newer = store.get(key(key), revision(loaded));
    @SuppressWarnings("unchecked")
    T value = newer.map(v -> (T) v.value()).orElse(loaded);
    return value;
  }

  @Override
  public void put(Object key, @Nullable Object value) {
    if (value != null) {
      store.put(key(key), revision(value), value);
    }
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
        .filter(current -> current.version() < VersionedCache.MAX_VERSION)
        .ifPresent(current -> store.delete(key(key), current.version() + 1));
  }

  /** Leaves a tombstone at {@code revision}: older puts of the key are refused. */
  void evict(Object key, long revision) {
    store.delete(key(key), revision);
  }

  /**
   * @throws UnsupportedOperationException always: a version-guarded cache is emptied only by
   *     deletions with a version, or by expiry
   */
  @Override
  public void clear() {
    throw new UnsupportedOperationException(
        "cache "
            + name
            + " is version-guarded: evict keys with their revision instead of clearing");
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
            + " is version-guarded: its values must implement "
            + Revisioned.class.getName()
            + ", not "
            + value.getClass().getName());
  }
}

package io.tidemark.spring;

import io.tidemark.GtidSet;
import io.tidemark.cache.RevisionGuardedCache;
import io.tidemark.jdbc.ConsistentReader;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * A {@link CacheManager} decorator: the named caches become revision-guarded — backed by a {@link
 * RevisionGuardedCache} (Caffeine, Redis, or both tiers), so {@code @Cacheable} and
 * {@code @CachePut} values that carry a {@link Revisioned revision} never go back to an older one,
 * across instances when the store is shared — and every other cache is the delegate's.
 *
 * <pre>{@code
 * @Bean
 * CacheManager cacheManager() {
 *   return new RevisionGuardedCacheManager(new ConcurrentMapCacheManager(), Set.of("orders"),
 *       name -> RevisionGuardedCache.caffeine(RevisionGuardedCacheConfig.defaults()));
 * }
 * }</pre>
 *
 * <p>A Redis or two-tier store makes the guard hold across instances; it needs a {@code ValueCodec}
 * for the cached type.
 */
public final class RevisionGuardedCacheManager implements CacheManager, BeanFactoryAware {

  private final CacheManager delegate;
  private final Set<String> guarded;
  private final Function<String, RevisionGuardedCache<Object>> stores;
  private final Map<String, Cache> caches = new ConcurrentHashMap<>();
  private @Nullable ObjectProvider<ConsistentReader> readers;
  // Found once: every cache lookup asks for its lost writes.
  private volatile @Nullable ConsistentReader reader;

  /**
   * @param delegate the cache manager for every other cache
   * @param guarded the names of the caches to guard
   * @param stores makes the store of a guarded cache, given its name (called once per name)
   */
  public RevisionGuardedCacheManager(
      CacheManager delegate,
      Set<String> guarded,
      Function<String, RevisionGuardedCache<Object>> stores) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.guarded = Set.copyOf(guarded);
    this.stores = Objects.requireNonNull(stores, "stores");
  }

  @Override
  public @Nullable Cache getCache(String name) {
    if (!guarded.contains(name)) {
      return delegate.getCache(name);
    }
    return caches.computeIfAbsent(
        name, n -> new SpringRevisionGuardedCache(n, stores.apply(n), this::lostWrites));
  }

  /** Finds the application's reader, whose lost writes no cached value may reflect. */
  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.readers = beanFactory.getBeanProvider(ConsistentReader.class);
  }

  private GtidSet lostWrites() {
    ConsistentReader found = reader;
    if (found == null) {
      ObjectProvider<ConsistentReader> provider = readers;
      found = provider == null ? null : provider.getIfAvailable();
      if (found == null) {
        return GtidSet.EMPTY;
      }
      reader = found;
    }
    return found.lostWrites();
  }

  @Override
  public Collection<String> getCacheNames() {
    Set<String> names = new LinkedHashSet<>(delegate.getCacheNames());
    names.addAll(guarded);
    return names;
  }
}

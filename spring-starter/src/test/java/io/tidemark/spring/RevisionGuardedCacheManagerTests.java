package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.cache.RevisionGuardedCache;
import io.tidemark.cache.RevisionGuardedCacheConfig;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code @Cacheable} and {@code @CachePut} through the decorator, in a real Spring context. */
class RevisionGuardedCacheManagerTests {

  record Order(long id, String status, long revision) implements Revisioned {}

  /** Reads and writes orders; {@code database} plays the table, read late by slow readers. */
  static class Orders {
    private final AtomicReference<Order> database = new AtomicReference<>();

    public void commit(Order row) {
      database.set(row);
    }

    @Cacheable("orders")
    public Order find(long id) {
      return database.get();
    }

    @CachePut(cacheNames = "orders", key = "#order.id")
    public Order save(Order order) {
      return order;
    }

    @Cacheable("plain")
    public String plain(long id) {
      return "value " + id;
    }
  }

  /** Spring's map caches, the orders cache guarded by revision with Caffeine. */
  static CacheManager guardingOrders() {
    return new RevisionGuardedCacheManager(
        new ConcurrentMapCacheManager(),
        Set.of("orders"),
        name -> RevisionGuardedCache.caffeine(RevisionGuardedCacheConfig.defaults()));
  }

  @Configuration
  @EnableCaching
  static class Caching {
    @Bean
    CacheManager cacheManager() {
      return guardingOrders();
    }

    @Bean
    Orders orders() {
      return new Orders();
    }
  }

  private final AnnotationConfigApplicationContext context =
      new AnnotationConfigApplicationContext(Caching.class);
  private final Orders orders = context.getBean(Orders.class);
  private final CacheManager manager = context.getBean(CacheManager.class);

  @AfterEach
  void close() {
    context.close();
  }

  @Test
  void neverServesTheValueOfAWriteTheClientWasToldIsLost() {
    String a = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    SpringRevisionGuardedCache cache =
        new SpringRevisionGuardedCache(
            "orders",
            RevisionGuardedCache.caffeine(RevisionGuardedCacheConfig.defaults()),
            () -> GtidSet.EMPTY);
    try (ConsistencyContext.Binding writer = ConsistencyContext.open(GtidSet.parse(a + ":1-3"))) {
      cache.put(7L, new Order(7, "PAID", 3));
    }

    try (ConsistencyContext.Binding reader = ConsistencyContext.open(GtidSet.parse(a + ":1-3"))) {
      reader.context().forgetLost(GtidSet.parse(a + ":3"));
      assertThat(cache.get(7L))
          .as("the lost write's value, on an instance that never met the loss")
          .isNull();
    }
  }

  @Test
  void neverServesTheValueOfAWriteAFailoverLost() {
    String a = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    AtomicReference<GtidSet> lost = new AtomicReference<>(GtidSet.EMPTY);
    SpringRevisionGuardedCache cache =
        new SpringRevisionGuardedCache(
            "orders",
            RevisionGuardedCache.caffeine(RevisionGuardedCacheConfig.defaults()),
            lost::get);
    try (ConsistencyContext.Binding writer = ConsistencyContext.open(GtidSet.parse(a + ":1-3"))) {
      cache.put(7L, new Order(7, "PAID", 3));
    }
    lost.set(GtidSet.parse(a + ":3"));

    try (ConsistencyContext.Binding reader = ConsistencyContext.open(GtidSet.parse(a + ":1-2"))) {
      assertThat(cache.get(7L)).as("the lost write's value").isNull();
      assertThat(cache.get(7L, () -> new Order(7, "CREATED", 2)))
          .as("what the database holds, though the cache refuses it as older")
          .isEqualTo(new Order(7, "CREATED", 2));
    }
  }

  @Test
  void aSlowReadersOldValueNeverReplacesANewerOne() {
    orders.commit(new Order(101, "created", 1));
    assertThat(orders.find(101).revision()).isEqualTo(1);

    orders.save(new Order(101, "paid", 2));
    orders.save(new Order(101, "created", 1));

    assertThat(orders.find(101)).isEqualTo(new Order(101, "paid", 2));
  }

  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @Test
  void aRequestWhoseTokenHoldsAnUpdateReadsThroughAnEntryCachedBeforeIt() {
    orders.commit(new Order(12, "created", 1));
    try (ConsistencyContext.Binding before = ConsistencyContext.open(GtidSet.parse(A + ":1-5"))) {
      assertThat(orders.find(12).status()).isEqualTo("created");
    }
    // The update commits (its GTID is A:6) without reaching the cache.
    orders.commit(new Order(12, "paid", 2));

    try (ConsistencyContext.Binding after = ConsistencyContext.open(GtidSet.parse(A + ":1-6"))) {
      assertThat(orders.find(12).status()).as("under the update's token").isEqualTo("paid");
    }
    orders.commit(new Order(12, "database moved on", 3));
    try (ConsistencyContext.Binding after = ConsistencyContext.open(GtidSet.parse(A + ":1-6"))) {
      assertThat(orders.find(12).status()).as("cached with the token it read at").isEqualTo("paid");
    }
    try (ConsistencyContext.Binding dirty = ConsistencyContext.open(GtidSet.parse(A + ":1-6"))) {
      dirty.context().markDirty("a write escaped capture");
      assertThat(orders.find(12).status()).isEqualTo("database moved on");
    }
  }

  @Test
  void evictionLeavesATombstoneThatRefusesTheEvictedRevision() {
    orders.save(new Order(7, "created", 3));

    manager.getCache("orders").evict(7L);
    manager.getCache("orders").put(7L, new Order(7, "created", 3));

    assertThat(manager.getCache("orders").get(7L)).isNull();
    manager.getCache("orders").put(7L, new Order(7, "shipped", 5));
    assertThat(manager.getCache("orders").get(7L, Order.class).status()).isEqualTo("shipped");
  }

  @Test
  void loaderResultOlderThanWhatArrivedMeanwhileGivesWayToTheNewer() {
    SpringRevisionGuardedCache cache = (SpringRevisionGuardedCache) manager.getCache("orders");

    Order returned =
        cache.get(
            5L,
            () -> {
              cache.put(5L, new Order(5, "paid", 9));
              return new Order(5, "created", 8);
            });

    assertThat(returned.revision()).isEqualTo(9);
  }

  @Test
  void valuesWithoutARevisionAreRefusedAndOtherCachesPassThrough() {
    assertThatThrownBy(() -> manager.getCache("orders").put(1L, "no revision"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Revisioned");
    assertThatThrownBy(() -> manager.getCache("orders").clear())
        .isInstanceOf(UnsupportedOperationException.class);

    assertThat(orders.plain(3)).isEqualTo("value 3");
    assertThat(manager.getCache("plain")).isNotInstanceOf(SpringRevisionGuardedCache.class);
    assertThat(manager.getCacheNames()).contains("orders", "plain");
  }
}

package io.tidemark.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.spring.Revisioned;
import org.junit.jupiter.api.Test;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/** The documentation's samples that need no servers, run. */
class DocumentationSamplesTests {

  record Order(long id, long revision) implements Revisioned {}

  @Test
  void theCacheManagerOfTheSampleGuardsOrdersAndLeavesOtherCachesAlone() {
    CacheManager manager = new ScopeSamples().cacheManager();

    Cache orders = manager.getCache("orders");
    assertThat(orders).isNotNull();
    orders.put(7L, new Order(7, 2));
    orders.put(7L, new Order(7, 1)); // a slow reader's older row
    assertThat(orders.get(7L, Order.class)).isEqualTo(new Order(7, 2));
    assertThatThrownBy(orders::clear).isInstanceOf(UnsupportedOperationException.class);

    Cache other = manager.getCache("customers");
    assertThat(other).isNotNull();
    other.put(7L, new Order(7, 2));
    other.put(7L, new Order(7, 1));
    assertThat(other.get(7L, Order.class)).isEqualTo(new Order(7, 1));
  }
}

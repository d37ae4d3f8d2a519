package io.tidemark.demo;

import java.util.Optional;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The read endpoint's cache, shared through Redis and guarded by revision: a slow reader's older
 * copy never replaces a newer one written by an update.
 */
@Service
class CachedOrders {

  private final OrderReads reads;

  CachedOrders(OrderReads reads) {
    this.reads = reads;
  }

  @Cacheable(cacheNames = "orders", key = "#id", unless = "#result == null")
  public Optional<Order> find(long id) {
    return reads.find(id);
  }
}

package io.tidemark.cache;

import io.tidemark.RedisClients;
import io.tidemark.testkit.RedisSentinel;
import io.tidemark.testkit.TestkitExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestkitExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSentinelVersionedCacheIT extends VersionedCacheContract {

  private final RedisClients clients = new RedisClients();
  private RedisSentinel sentinel;

  @BeforeAll
  void connect(RedisSentinel sentinel) {
    this.sentinel = sentinel;
  }

  @AfterAll
  void close() throws Exception {
    clients.close();
  }

  @Override
  VersionedCache<String> cache(VersionedCacheConfig config) {
    return RedisVersionedCache.create(clients.connect(sentinel), ValueCodec.text(), config);
  }
}

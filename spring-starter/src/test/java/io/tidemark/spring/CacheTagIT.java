package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TidemarkRunners;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a read-through entry of a revision-guarded cache is tagged with, on the real topology with
 * monotonic reads (the default) and the cache outside {@code @ReadYourWrites} (the default order):
 * what its query was sure to see, never what the replica applied after it.
 */
@ExtendWith(TestkitExtension.class)
class CacheTagIT {

  private static MySqlTopology topology;
  private static String db;

  record Order(long id, long revision) implements Revisioned {}

  @BeforeAll
  static void database(MySqlTopology shared) {
    topology = shared;
    db = topology.createDatabase("cachetag");
    topology
        .source()
        .execute(
            "CREATE TABLE `" + db + "`.orders (id INT PRIMARY KEY, revision INT NOT NULL)",
            "INSERT INTO `" + db + "`.orders VALUES (7, 5)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  static class Orders {
    private final JdbcTemplate jdbc;
    private final AtomicReference<@Nullable Runnable> afterQuery = new AtomicReference<>();

    Orders(DataSource dataSource) {
      this.jdbc = new JdbcTemplate(dataSource);
    }

    /** Runs {@code then} right after the next query of {@link #find}, inside its read. */
    public void afterNextQuery(Runnable then) {
      afterQuery.set(then);
    }

    public void raise(int id) {
      jdbc.update("UPDATE orders SET revision = revision + 1 WHERE id = ?", id);
    }

    @Cacheable("orders")
    @ReadYourWrites
    public Order find(int id) {
      Order order =
          jdbc.queryForObject(
              "SELECT id, revision FROM orders WHERE id = ?",
              (rs, n) -> new Order(rs.getLong(1), rs.getLong(2)),
              id);
      Runnable then = afterQuery.getAndSet(null);
      if (then != null) {
        then.run();
      }
      return order;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class App {
    @Bean
    Orders orders(DataSource dataSource) {
      return new Orders(dataSource);
    }

    @Bean
    CacheManager cacheManager() {
      return RevisionGuardedCacheManagerTests.guardingOrders();
    }
  }

  @Test
  void anEntryIsNotTaggedWithWhatTheReplicaAppliedAfterItsQuery() {
    TidemarkRunners.on(topology, db, "c")
        .withUserConfiguration(App.class)
        .run(
            context -> {
              Orders orders = context.getBean(Orders.class);
              topology.replica().pauseApplier();
              GtidSet writerToken;
              try {
                try (ConsistencyContext.Binding writer = ConsistencyContext.open()) {
                  orders.raise(7); // no put: the cache is not told
                  writerToken = writer.context().gtids();
                }
                assertThat(writerToken.isEmpty()).as("the write was captured").isFalse();

                // A reader without a token reads revision 5 on the lagging replica, and the
                // replica applies the write before the read's monotonic observation.
                orders.afterNextQuery(
                    () -> {
                      topology.replica().resumeApplier();
                      assertThat(
                              topology
                                  .replica()
                                  .awaitGtidSet(writerToken.toString(), Duration.ofSeconds(10)))
                          .isTrue();
                    });
                try (ConsistencyContext.Binding reader = ConsistencyContext.open()) {
                  assertThat(orders.find(7).revision()).isEqualTo(5);
                  assertThat(reader.context().gtids().containsAll(writerToken))
                      .as("monotonic reads: the reader's next read sees what the replica had")
                      .isTrue();
                }
              } finally {
                topology.replica().resumeApplier();
              }

              try (ConsistencyContext.Binding writer = ConsistencyContext.open(writerToken)) {
                assertThat(orders.find(7).revision())
                    .as("the writer reads its own write, not the entry read before it")
                    .isEqualTo(6);
              }
            });
  }
}

package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.testkit.redis.RedisServer;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Scopes shared through a real Redis by two instances: a client that keeps no token writes on one
 * and reads on the other, and a write whose scope Redis cannot take fails typed after its commit
 * instead of answering a success that the scope's reads would contradict.
 */
class RedisScopesIT {

  private static final AtomicLong ids = new AtomicLong();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("scopes").withRedis();

  private static RedisServer redis;
  private static ConfigurableApplicationContext writer;
  private static ConfigurableApplicationContext reader;

  @BeforeAll
  static void start() {
    redis = shops.redis();
    String[] store = {"tidemark.scope.store=REDIS", "tidemark.scope.redis-uri=" + redis.uri()};
    writer = shops.start(store);
    reader = shops.start(store);
  }

  @Test
  void aScopedWriteOnOneInstanceIsReadUnderTheScopeOnTheOther() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    writer.getBean(ShopApplication.Writes.class).createInScope(id, "lin");
    CompletableFuture<Void> resume =
        shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));

    Optional<ShopApplication.Order> order =
        reader.getBean(ShopApplication.Reads.class).findForCustomer("lin", id);
    resume.join();

    assertThat(order).isPresent();
    assertThat(reader.getBean(ExecutionHistory.class).recent().get(0).reason())
        .isEqualTo(Reason.REPLICA_AFTER_WAIT);
  }

  @Test
  void aScopedWriteInsideAnOuterTransactionIsPublishedOnceItCommits() {
    long id = ids.incrementAndGet();
    ShopApplication.Writes writes = writer.getBean(ShopApplication.Writes.class);
    GtidSet written;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      writes.createInScopeInOuterTransaction(id, "mia", writes);
      written = binding.context().gtids();
    }

    assertThat(written.isEmpty()).as("the outer commit was captured").isFalse();
    assertThat(
            writer
                .getBean(ScopeStore.class)
                .get(ScopeKey.of("customer:mia"))
                .gtids()
                .containsAll(written))
        .as("the scope holds the write committed by the outer transaction")
        .isTrue();
  }

  @Test
  void aWriteWhoseScopeRedisCannotTakeReturnsAsCommittedAndNotesTheScope() {
    long id = ids.incrementAndGet();
    redis.freeze();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      writer.getBean(ShopApplication.Writes.class).createInScope(id, "kim");
      assertThat(binding.context().unrecordedScopes()).containsExactly("customer:kim");
      assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
    } finally {
      redis.thaw();
    }
    assertThat(
            shops
                .topology()
                .source()
                .queryString("SELECT customer FROM `" + shops.db() + "`.orders WHERE id = " + id))
        .as("the write itself committed")
        .isEqualTo("kim");
  }
}

package io.tidemark.spring.shop;

import static io.tidemark.spring.OrdersApplication.lastRead;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.internal.SocketTimeout;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.spring.shop.ShopApplication.Order;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code @ReadYourWrites} in a full application on the real topology: a write on one instance, its
 * token handed to another instance (the only thing the two share), and the second instance's
 * replica read sees the write — also when the replica is held back, where a plain replica read does
 * not; with JdbcTemplate and with JPA inside {@code @Transactional(readOnly = true)}, and on
 * another thread the context was carried to.
 */
class ReadYourWritesIT {

  private static final AtomicLong ids = new AtomicLong();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("shop");

  private static ConfigurableApplicationContext writer;
  private static ConfigurableApplicationContext reader;

  @BeforeAll
  static void start() {
    writer = shops.start("tidemark.scope.store=CAFFEINE");
    reader = shops.start("tidemark.scope.store=CAFFEINE");
  }

  @Test
  void readOnAnotherInstanceWaitsForTheWriteOnTheReplica() throws Exception {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = writeOnWriter(id);
    assertThat(plainReplicaRead(id)).as("the replica without the wait is stale").isEmpty();

    CompletableFuture<Void> resume =
        shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));
    Optional<Order> order = readOnReader(token, () -> reads(reader).find(id));
    resume.join();

    assertThat(order).map(Order::customer).contains("ada");
    ExecutionRecord record = lastRead(reader);
    assertThat(record.role()).isEqualTo(NodeRole.REPLICA);
    assertThat(record.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    assertThat(record.waited()).isGreaterThan(Duration.ofMillis(200));
  }

  @Test
  void readRunByAContextExecutorOnAnotherThreadWaitsForTheWrite() throws Exception {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = writeOnWriter(id);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    ExecutorService contextExecutor =
        ContextExecutorService.wrap(pool, ContextSnapshotFactory.builder().build());
    try {
      CompletableFuture<Void> resume =
          shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));
      Optional<Order> order =
          readOnReader(
              token,
              () ->
                  CompletableFuture.supplyAsync(() -> reads(reader).find(id), contextExecutor)
                      .join());
      resume.join();

      assertThat(order).map(Order::customer).contains("ada");
      ExecutionRecord record = lastRead(reader);
      assertThat(record.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(record.waited()).isGreaterThan(Duration.ofMillis(200));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void readWithoutWriteRunsOnTheReplicaAndOutsideReadsOnTheSource() {
    String replica = shops.topology().replica().serverUuid();
    String source = shops.topology().source().serverUuid();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThat(reads(reader).server()).isEqualTo(replica);
      assertThat(reads(reader).serverOutsideRead()).isEqualTo(source);
    }
    assertThat(lastRead(reader).reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
  }

  @Test
  void classLevelAnnotationMakesPublicMethodsReadsButNotObjectMethods() {
    ShopApplication.ReplicaInfo info = reader.getBean(ShopApplication.ReplicaInfo.class);
    ExecutionHistory history = reader.getBean(ExecutionHistory.class);

    assertThat(info.server()).isEqualTo(shops.topology().replica().serverUuid());
    int reads = history.recent().size();
    assertThat(info.toString()).isEqualTo("replica info");
    assertThat(history.recent()).as("toString is no read").hasSize(reads);
  }

  @Test
  void heldBackReplicaFailsWithTheReasonWithinTheBudget() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = writeOnWriter(id);

    long started = System.nanoTime();
    assertThatThrownBy(() -> readOnReader(token, () -> reads(reader).findOrFail(id)))
        .isInstanceOfSatisfying(
            ConsistentReadException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.WAIT_TIMEOUT));
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    // The wait of findOrFail's 300 ms ends the query's reserve and a socket grace before them.
    long waitEnds =
        300
            - ConsistentReader.Builder.DEFAULT_QUERY_RESERVE.toMillis()
            - SocketTimeout.SOCKET_GRACE_MILLIS;
    assertThat(elapsedMillis).isBetween(waitEnds, 300L + 250L);
  }

  @Test
  void heldBackReplicaFallsBackToTheSourceByDefault() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = writeOnWriter(id);

    Optional<Order> order =
        readOnReader(token, () -> reads(reader).findAtLeast(id, Long.MIN_VALUE + 1));

    assertThat(order).isPresent();
    assertThat(lastRead(reader).reason()).isEqualTo(Reason.SOURCE_FALLBACK);
    assertThat(lastRead(reader).role()).isEqualTo(NodeRole.SOURCE);
  }

  @Test
  void jpaReadInsideReadOnlyTransactionWaitsOnThePinnedConnection() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = writeOnWriter(id);
    CompletableFuture<Void> resume =
        shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));

    Optional<String> status =
        readOnReader(token, () -> reader.getBean(ShopApplication.JpaReads.class).status(id));
    resume.join();

    assertThat(status).contains("NEW");
    assertThat(lastRead(reader).reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
  }

  @Test
  void readCalledInsideAnOpenTransactionJoinsItOnTheSource() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Optional<Order> order =
          writer.getBean(ShopApplication.Writes.class).createAndRead(id, "ada", reads(writer));
      assertThat(order).as("the transaction's own uncommitted row").isPresent();
    }
  }

  @Test
  void aReadInATransactionWhoseReadViewMayMissTheTokensWritesIsRefused() {
    long id = ids.incrementAndGet();
    ShopApplication.Writes writes = writer.getBean(ShopApplication.Writes.class);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThatThrownBy(
              () -> writes.readThenFindOneCommittedMeanwhile(id, "ada", writes, reads(writer)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("read view");
      assertThat(binding.context().gtids().isEmpty()).as("the inner commit was captured").isFalse();
    }
    assertThat(
            shops
                .topology()
                .source()
                .queryString("SELECT COUNT(*) FROM `" + shops.db() + "`.orders WHERE id = " + id))
        .as("committed by its own transaction")
        .isEqualTo("1");
  }

  @Test
  void aReadInAReadCommittedTransactionSeesWhatTheTokenGainedMeanwhile() {
    long id = ids.incrementAndGet();
    ShopApplication.Writes writes = writer.getBean(ShopApplication.Writes.class);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThat(
              writes.readCommittedThenFindOneCommittedMeanwhile(id, "ada", writes, reads(writer)))
          .isPresent();
    }
  }

  @Test
  void aReadInATransactionWhoseSourceLacksTheTokenFailsNamingLostWrites() {
    ShopApplication.Writes writes = writer.getBean(ShopApplication.Writes.class);
    String source = shops.topology().source().serverUuid();
    try (ConsistencyContext.Binding binding =
        ConsistencyContext.open(GtidSet.parse(source + ":1-100000000"))) {
      ConsistentReadException failure =
          catchThrowableOfType(
              ConsistentReadException.class, () -> writes.findInTransaction(1, reads(writer)));
      assertThat(failure.reason()).isEqualTo(Reason.TOKEN_NOT_ON_SOURCE);
    }
  }

  @Test
  void scopedWriteIsSeenByAReadUnderTheScope() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    writer.getBean(ShopApplication.Writes.class).createInScope(id, "grace");
    CompletableFuture<Void> resume =
        shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));

    // The scope store is this instance's (Caffeine): the read runs on the writing instance, with
    // no token of its own.
    Optional<Order> order = reads(writer).findForCustomer("grace", id);
    resume.join();

    assertThat(order).isPresent();
    assertThat(lastRead(writer).reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
  }

  @Test
  void revisionRequirementSkipsAnOlderRow() {
    long id = ids.incrementAndGet();
    writeOnWriter(id);
    shops.topology().awaitReplicasCaughtUp(Duration.ofSeconds(10));
    shops.topology().replica().pauseApplier();
    writer.getBean(ShopApplication.Writes.class).update(id, "PAID");

    // No token: only the revision tells that the replica's row is old.
    Optional<Order> order;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      order = reads(reader).findAtLeast(id, 2);
    }

    assertThat(order).map(Order::status).contains("PAID");
    assertThat(lastRead(reader).role()).isEqualTo(NodeRole.SOURCE);
  }

  @Test
  void badScopeExpressionFailsWithTheMethodNamed() {
    assertThatThrownBy(() -> reads(reader).findForCustomer("two words", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("findForCustomer");
  }

  private static String writeOnWriter(long id) {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      writer.getBean(ShopApplication.Writes.class).create(id, "ada");
      GtidSet written = binding.context().gtids();
      assertThat(written.isEmpty()).as("the commit's GTID was captured").isFalse();
      TokenCodec codec = writer.getBean(TokenCodec.class);
      return codec.encode(codec.issue("shop", written));
    }
  }

  private static <T> T readOnReader(String token, java.util.function.Supplier<T> read) {
    ConsistencyToken verified = reader.getBean(TokenCodec.class).verify(token, "shop");
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(verified.gtids())) {
      return read.get();
    }
  }

  private static Optional<Order> plainReplicaRead(long id) {
    JdbcTemplate replica =
        new JdbcTemplate(
            new org.springframework.jdbc.datasource.DriverManagerDataSource(
                shops.topology().replica().jdbcUrl(shops.db()),
                shops.topology().replica().user(),
                shops.topology().replica().password()));
    return replica
        .query(
            "SELECT id, customer, status, revision FROM orders WHERE id = ?",
            (rs, row) -> new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4)),
            id)
        .stream()
        .findFirst();
  }

  private static ShopApplication.Reads reads(ConfigurableApplicationContext context) {
    return context.getBean(ShopApplication.Reads.class);
  }
}

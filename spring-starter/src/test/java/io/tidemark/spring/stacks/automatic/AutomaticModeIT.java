package io.tidemark.spring.stacks.automatic;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.spring.stacks.orders.OrderEntity;
import io.tidemark.topology.ExecutionHistory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The automatic mode in an application that names nothing of Tidemark: Spring Data JPA query
 * methods, inherited and derived, a {@code @Transactional(readOnly = true)} service's JdbcTemplate
 * reads, and JdbcTemplate and JdbcClient queries outside a transaction run on the replica after it
 * executed the write before them; a read-write transaction that reads first, a locking read, a
 * hinted statement and a query calling a function that writes run on the source.
 */
class AutomaticModeIT extends AutomaticReadsContract {

  AutomaticModeIT() {
    super("automatic", "tidemark.read.automatic=true");
  }

  @BeforeAll
  void createWritingFunction() {
    app.createWritingFunction();
  }

  @Test
  void aDerivedQueryMethodWaitsOnTheReplica() {
    StackApplication.Read<List<OrderEntity>> read =
        afterSaving("grace", id -> orders().findByCustomer("grace"));

    assertThat(read.waitedOnTheReplica().value())
        .extracting(OrderEntity::customer)
        .containsExactly("grace");
  }

  @Test
  void aReadOnAThreadWithoutAContextRunsOnTheSourceAsItsWritesWereNotCaptured() {
    ExecutionHistory history = app.bean(ExecutionHistory.class);
    app.topology().replica().pauseApplier();
    try {
      long id = write(app, "donald");
      assertThat(app.replicaHas(id)).as("the replica lacks the write").isFalse();

      assertThat(customers().of(id)).isEqualTo("donald");

      ExecutionRecord read = history.recent().get(0);
      assertThat(read.role()).as(read.toString()).isEqualTo(NodeRole.SOURCE);
      assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.SOURCE_BY_POLICY);
    } finally {
      app.topology().replica().resumeApplier();
    }
  }

  @Test
  void aJdbcTemplateQueryOutsideATransactionWaitsOnTheReplica() {
    JdbcTemplate jdbc = app.bean(JdbcTemplate.class);

    StackApplication.Read<String> read =
        afterSaving(
            "ken",
            id ->
                jdbc.queryForObject("SELECT customer FROM orders WHERE id = ?", String.class, id));

    assertThat(read.waitedOnTheReplica().value()).isEqualTo("ken");
  }

  @Test
  void aJdbcClientQueryOutsideATransactionWaitsOnTheReplica() {
    JdbcClient jdbc = app.bean(JdbcClient.class);

    StackApplication.Read<String> read =
        afterSaving(
            "dennis",
            id ->
                jdbc.sql("SELECT customer FROM orders WHERE id = :id")
                    .param("id", id)
                    .query(String.class)
                    .single());

    assertThat(read.waitedOnTheReplica().value()).isEqualTo("dennis");
  }

  @Test
  void aQueryCallingAFunctionThatWritesRunsOnTheSourceAndIsCaptured() {
    JdbcTemplate jdbc = app.bean(JdbcTemplate.class);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Long number = jdbc.queryForObject("SELECT next_number()", Long.class);

      assertThat(app.lastNumberOnTheSource()).isEqualTo(String.valueOf(number));
      assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
    }
    app.assertNoErrantTransactionOnTheReplica();
  }

  @Test
  void aReadWriteTransactionThatReadsFirstRunsOnTheSourceAndIsCaptured() {
    long id = write(app, "barbara");
    ExecutionHistory history = app.bean(ExecutionHistory.class);
    int before = history.recent().size();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThat(customers().rename(id, "barbara l.")).isEqualTo("barbara");

      assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
    }
    assertThat(history.recent()).as("no read of the read path").hasSize(before);
    app.assertNoErrantTransactionOnTheReplica();
  }

  @Test
  void aModifyingQueryMethodIsNoReadAndIsCaptured() {
    long id = write(app, "alan");
    ExecutionHistory history = app.bean(ExecutionHistory.class);
    int before = history.recent().size();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThat(orders().rename(id, "alan t.")).isEqualTo(1);

      assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
    }
    assertThat(history.recent()).as("no read of the read path").hasSize(before);
  }

  @Test
  void aLockingReadRunsOnTheSource() {
    StackApplication.Read<String> read = afterSaving("frances", customers()::locked);

    assertThat(read.value()).isEqualTo("frances");
    assertSourceForWrite(read.records());
  }

  /**
   * The source's read-only session refuses {@code FOR UPDATE} on MySQL (error 1792): the read, sent
   * to the source for its locking read, runs there again as it would without Tidemark.
   */
  @Test
  void anAnnotatedReadThatLocksForUpdateOutsideATransactionAnswers() {
    StackApplication.Read<String> read = afterSaving("grace", customers()::lockedForUpdate);

    assertThat(read.value()).isEqualTo("grace");
  }

  @Test
  void aReadRunAgainOnTheSourceRunsInItsTransactionAgain() {
    StackApplication.Read<Boolean> read = afterSaving("john", customers()::lockedInTransaction);

    assertThat(read.value()).as("a transaction is open on the source").isTrue();
    assertSourceForWrite(read.records());
  }

  @Test
  void aHintedStatementRunsOnTheSource() {
    StackApplication.Read<String> read = afterSaving("adele", customers()::hinted);

    assertThat(read.value()).isEqualTo("adele");
    assertSourceForWrite(read.records());
  }

  /**
   * The server is sent the statement without the hint, both in a read the hint sent to the source
   * and in a statement that runs there as without Tidemark; a hint anywhere but at the start is
   * text like any other.
   */
  @Test
  void theServerIsSentAHintedStatementWithoutItsHint() {
    Customers customers = customers();
    String running = "SELECT info FROM information_schema.processlist WHERE id = CONNECTION_ID()";

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThat(customers.text("/* tidemark:source */ " + running)).isEqualTo(running);
      ExecutionRecord read = binding.context().lastRead();
      assertThat(read).isNotNull();
      assertSourceForWrite(List.of(read));
      assertThat(customers.textOutsideReads("/*Tidemark:Source*/" + running)).isEqualTo(running);
      assertThat(customers.textOutsideReads(running + " /* tidemark:source */"))
          .isEqualTo(running + " /* tidemark:source */");
    }
  }

  /**
   * The same application on PostgreSQL: Spring Data JPA's finders, a read-only service's
   * JdbcTemplate read and a JdbcTemplate query outside a transaction wait on the standby, and a
   * read-write transaction that reads first runs on the primary, as without Tidemark.
   */
  @Test
  void onPostgresqlJpaAndJdbcTemplateReadsWaitOnTheStandby() {
    try (StackApplication postgres = automaticOnPostgres("automaticpg")) {
      Orders orders = postgres.bean(Orders.class);
      Customers customers = postgres.bean(Customers.class);

      StackApplication.Read<Optional<OrderEntity>> inherited =
          postgres.readAfterWrite(() -> write(postgres, "mary"), orders::findById);
      StackApplication.Read<List<OrderEntity>> derived =
          postgres.readAfterWrite(
              () -> write(postgres, "frances"), id -> orders.findByCustomer("frances"));
      StackApplication.Read<String> service =
          postgres.readAfterWrite(() -> write(postgres, "jean"), customers::of);
      JdbcTemplate jdbc = postgres.bean(JdbcTemplate.class);
      StackApplication.Read<String> outside =
          postgres.readAfterWrite(
              () -> write(postgres, "grete"),
              id ->
                  jdbc.queryForObject(
                      "SELECT customer FROM orders WHERE id = ?", String.class, id));
      StackApplication.Read<String> readWrite =
          postgres.readAfterWrite(
              () -> write(postgres, "hedy"), id -> customers.rename(id, "hedy lamarr"));

      assertThat(inherited.waitedOnTheReplica().value())
          .map(OrderEntity::customer)
          .contains("mary");
      assertThat(derived.waitedOnTheReplica().value())
          .extracting(OrderEntity::customer)
          .containsExactly("frances");
      assertThat(service.waitedOnTheReplica().value()).isEqualTo("jean");
      assertThat(outside.waitedOnTheReplica().value()).isEqualTo("grete");
      assertThat(readWrite.value()).as("read on the primary, in the transaction").isEqualTo("hedy");
      assertThat(readWrite.records()).as("no read of the read path").isEmpty();
    }
  }

  private static void assertSourceForWrite(List<ExecutionRecord> records) {
    assertThat(records).as("reads of the read path").hasSize(1);
    ExecutionRecord read = records.get(0);
    assertThat(read.role()).as(read.toString()).isEqualTo(NodeRole.SOURCE);
    assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.SOURCE_FOR_WRITE);
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @EnableJpaRepositories(considerNestedRepositories = true)
  @AutoConfigurationPackage(basePackageClasses = OrderEntity.class)
  @Import(Customers.class)
  static class Application {}

  static class Customers {
    private final JdbcTemplate jdbc;

    Customers(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public String of(long id) {
      return jdbc.queryForObject("SELECT customer FROM orders WHERE id = ?", String.class, id);
    }

    @Transactional(readOnly = true)
    public String locked(long id) {
      return jdbc.queryForObject(
          "SELECT customer FROM orders WHERE id = ? FOR SHARE", String.class, id);
    }

    @ReadYourWrites
    public String lockedForUpdate(long id) {
      return jdbc.queryForObject(
          "SELECT customer FROM orders WHERE id = ? FOR UPDATE", String.class, id);
    }

    @Transactional(readOnly = true)
    public boolean lockedInTransaction(long id) {
      jdbc.queryForObject("SELECT customer FROM orders WHERE id = ? FOR SHARE", String.class, id);
      return TransactionSynchronizationManager.isActualTransactionActive();
    }

    @Transactional
    public String rename(long id, String customer) {
      String before = of(id);
      jdbc.update("UPDATE orders SET customer = ? WHERE id = ?", customer, id);
      return before;
    }

    @Transactional(readOnly = true)
    public String text(String sql) {
      return jdbc.queryForObject(sql, String.class);
    }

    @Transactional
    public String textOutsideReads(String sql) {
      return jdbc.queryForObject(sql, String.class);
    }

    // tag::hint[]
    @Transactional(readOnly = true)
    public String hinted(long id) {
      return jdbc.queryForObject(
          "/* tidemark:source */ SELECT customer FROM orders WHERE id = ?", String.class, id);
    }
    // end::hint[]
  }

  interface Orders extends JpaRepository<OrderEntity, Long> {
    List<OrderEntity> findByCustomer(String customer);

    @Transactional
    @Modifying
    @Query("UPDATE OrderEntity o SET o.customer = ?2 WHERE o.id = ?1")
    int rename(long id, String customer);
  }
}

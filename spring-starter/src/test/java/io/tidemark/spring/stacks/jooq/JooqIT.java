package io.tidemark.spring.stacks.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.ApplicationWithoutJpa;
import io.tidemark.spring.stacks.AutomaticStackContract;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.topology.ExecutionHistory;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultTransactionProvider;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * jOOQ ({@code spring-boot-starter-jooq}): an insert through Boot's {@code DSLContext}, then a
 * select under {@code @ReadYourWrites}, on the replica after the wait. Boot's {@code DSLContext}
 * takes its connections from the application's {@code DataSource} through a {@code
 * TransactionAwareDataSourceProxy}.
 */
class JooqIT extends AutomaticStackContract {

  private static final AtomicLong ids = new AtomicLong();

  JooqIT() {
    super(Application.class, "jooq");
  }

  /** An insert through Boot's {@code DSLContext}. */
  @Override
  protected long write(StackApplication app, String customer) {
    long id = ids.incrementAndGet();
    app.bean(OrderStore.class).create(id, customer);
    return id;
  }

  /** A select through the {@code DSLContext} in a service method. */
  @Override
  protected Optional<String> readYourWrites(StackApplication app, long id) {
    return app.bean(OrderStore.class).customer(id);
  }

  @Test
  void inTheAutomaticModeALockingQueryOutsideATransactionRunsOnTheSource() {
    try (StackApplication automatic = automatic("jooqlock")) {
      StackApplication.Read<Optional<String>> read =
          automatic.readAfterWrite(
              () -> write(automatic, "edsger"), automatic.bean(OrderStore.class)::locked);

      assertThat(read.records()).as("reads of the read path").isEmpty();
      assertThat(read.value()).contains("edsger");
    }
  }

  @Test
  void inTheAutomaticModeAQueryInATransactionJooqBeganItselfStaysInIt() {
    try (StackApplication automatic = automatic("jooqtx")) {
      OrderStore orders = automatic.bean(OrderStore.class);
      ExecutionHistory history = automatic.bean(ExecutionHistory.class);
      int before = history.recent().size();

      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        assertThat(orders.createAndReadInOwnTransaction(ids.incrementAndGet(), "frances"))
            .as("the transaction's own insert")
            .contains("frances");
      }
      assertThat(history.recent()).as("no read of the read path").hasSize(before);
    }
  }

  @Test
  void inTheAutomaticModeAQueryCallingAFunctionThatWritesRunsOnTheSourceAndIsCaptured() {
    try (StackApplication automatic = automatic("jooqfn")) {
      automatic.createWritingFunction();
      OrderStore orders = automatic.bean(OrderStore.class);

      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        long number = orders.nextNumber();

        assertThat(automatic.lastNumberOnTheSource()).isEqualTo(String.valueOf(number));
        assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
      }
      automatic.assertNoErrantTransactionOnTheReplica();
    }
  }

  /**
   * A read-only transaction, and a query outside any transaction: jOOQ gives no hook around a
   * query, so this one is read through the statement jOOQ prepares.
   */
  @Override
  protected void unannotatedReadsSeeTheWrites(StackApplication automatic) {
    OrderStore orders = automatic.bean(OrderStore.class);

    StackApplication.Read<Optional<String>> inTransaction =
        automatic.readAfterWrite(() -> write(automatic, "barbara"), orders::readOnly);
    StackApplication.Read<Optional<Record2<Long, String>>> outside =
        automatic.readAfterWrite(() -> write(automatic, "grace"), orders::outside);

    assertThat(inTransaction.waitedOnTheReplica().value()).contains("barbara");
    assertThat(outside.waitedOnTheReplica().value())
        .map(row -> row.value1() + " " + row.value2())
        .contains(outside.value().orElseThrow().value1() + " grace");
    assertThat(outside.value().orElseThrow().value1()).isPositive();
  }

  @ApplicationWithoutJpa
  @Import(OrderStore.class)
  static class Application {}

  @Service
  static class OrderStore {
    private static final Table<Record> ORDERS = DSL.table(DSL.name("orders"));
    private static final Field<Long> ID = DSL.field(DSL.name("id"), Long.class);
    private static final Field<String> CUSTOMER = DSL.field(DSL.name("customer"), String.class);

    private final DSLContext dsl;

    OrderStore(DSLContext dsl) {
      this.dsl = dsl;
    }

    void create(long id, String customer) {
      dsl.insertInto(ORDERS, ID, CUSTOMER).values(id, customer).execute();
    }

    @ReadYourWrites
    public Optional<String> customer(long id) {
      return dsl.select(CUSTOMER).from(ORDERS).where(ID.eq(id)).fetchOptional(CUSTOMER);
    }

    @Transactional(readOnly = true)
    public Optional<String> readOnly(long id) {
      return dsl.select(CUSTOMER).from(ORDERS).where(ID.eq(id)).fetchOptional(CUSTOMER);
    }

    Optional<Record2<Long, String>> outside(long id) {
      return dsl.select(ID, CUSTOMER).from(ORDERS).where(ID.eq(id)).fetchOptional();
    }

    Optional<String> locked(long id) {
      return dsl.select(CUSTOMER).from(ORDERS).where(ID.eq(id)).forUpdate().fetchOptional(CUSTOMER);
    }

    /** An insert and a read in one transaction that jOOQ begins on its connection, not Spring. */
    Optional<String> createAndReadInOwnTransaction(long id, String customer) {
      Configuration own =
          dsl.configuration()
              .derive(new DefaultTransactionProvider(dsl.configuration().connectionProvider()));
      return DSL.using(own)
          .transactionResult(
              transaction -> {
                transaction.dsl().insertInto(ORDERS, ID, CUSTOMER).values(id, customer).execute();
                return transaction
                    .dsl()
                    .select(CUSTOMER)
                    .from(ORDERS)
                    .where(ID.eq(id))
                    .fetchOptional(CUSTOMER);
              });
    }

    long nextNumber() {
      return dsl.select(DSL.field("next_number()", Long.class)).fetchSingle().value1();
    }
  }
}

package io.tidemark.spring.stacks.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.ApplicationWithoutJpa;
import io.tidemark.spring.stacks.AutomaticStackContract;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * MyBatis ({@code mybatis-spring-boot-starter}): a mapper's insert, then its select under
 * {@code @ReadYourWrites}, on the replica after the wait, whether the annotation is on a service
 * method or on the mapper method itself; and, in the automatic mode, a mapper's select outside a
 * transaction with no annotation at all. MyBatis-Spring takes the connection from the application's
 * {@code DataSource} through Spring's {@code DataSourceUtils}.
 */
class MyBatisIT extends AutomaticStackContract {

  private static final AtomicLong ids = new AtomicLong();

  MyBatisIT() {
    super(Application.class, "mybatis");
  }

  /** A mapper's insert. */
  @Override
  protected long write(StackApplication app, String customer) {
    long id = ids.incrementAndGet();
    app.bean(OrderMapper.class).insert(id, customer);
    return id;
  }

  /** A service read through the mapper. */
  @Override
  protected Optional<String> readYourWrites(StackApplication app, long id) {
    return app.bean(OrderReads.class).customer(id);
  }

  @Test
  void anAnnotatedMapperMethodSeesTheInsert() {
    StackApplication.Read<Optional<String>> read =
        app.readAfterWrite(() -> write(app, "grace"), app.bean(OrderMapper.class)::readCustomer);

    assertThat(read.waitedOnTheReplica().value()).contains("grace");
  }

  @Test
  void inTheAutomaticModeAMapperSelectOutsideATransactionSeesTheInsert() {
    try (StackApplication automatic = automatic("mybatisselect")) {
      StackApplication.Read<Optional<String>> read =
          automatic.readAfterWrite(
              () -> write(automatic, "margaret"), automatic.bean(OrderMapper.class)::customer);

      assertThat(read.waitedOnTheReplica().value()).contains("margaret");
    }
  }

  /** A mapper's select outside a transaction, and a read-only transaction through the mapper. */
  @Override
  protected void unannotatedReadsSeeTheWrites(StackApplication automatic) {
    OrderMapper mapper = automatic.bean(OrderMapper.class);

    StackApplication.Read<Optional<String>> alone =
        automatic.readAfterWrite(() -> write(automatic, "mary"), mapper::customer);
    StackApplication.Read<Optional<String>> inTransaction =
        automatic.readAfterWrite(
            () -> write(automatic, "frances"), automatic.bean(OrderReads.class)::readOnly);

    assertThat(alone.waitedOnTheReplica().value()).contains("mary");
    assertThat(inTransaction.waitedOnTheReplica().value()).contains("frances");
  }

  /**
   * In the automatic mode, mapper selects that must not run on a replica: a locking read runs on
   * the source as it would without Tidemark (the replica, held behind, would answer the old name),
   * and one calling a function that writes is refused by the replica's read-only session, then runs
   * on the source and is captured.
   */
  @Test
  void inTheAutomaticModeAMapperSelectThatWritesOrLocksRunsOnTheSource() {
    MySqlTopology topology = app.topology();
    try (StackApplication automatic = automatic("mybatiswrites")) {
      String db = "`" + automatic.db() + "`";
      automatic.createWritingFunction();
      OrderMapper mapper = automatic.bean(OrderMapper.class);
      long id = write(automatic, "katherine");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      topology.replica().pauseApplier();
      try {
        topology
            .source()
            .execute("UPDATE " + db + ".orders SET customer = 'dorothy' WHERE id = " + id);

        try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
          assertThat(mapper.customer(id)).as("the replica, held behind").contains("katherine");
          assertThat(mapper.lockedCustomer(id)).as("the locking read").contains("dorothy");

          long number = mapper.nextNumber();
          assertThat(automatic.lastNumberOnTheSource()).isEqualTo(String.valueOf(number));
          assertThat(binding.context().gtids().isEmpty()).as("the write's GTID").isFalse();
        }
      } finally {
        topology.replica().resumeApplier();
      }
      automatic.assertNoErrantTransactionOnTheReplica();
    }
  }

  @ApplicationWithoutJpa
  @Import(OrderReads.class)
  static class Application {}

  @Mapper
  interface OrderMapper {
    @Insert("INSERT INTO orders (id, customer) VALUES (#{id}, #{customer})")
    void insert(@Param("id") long id, @Param("customer") String customer);

    @Select("SELECT customer FROM orders WHERE id = #{id}")
    Optional<String> customer(long id);

    @ReadYourWrites
    @Select("SELECT customer FROM orders WHERE id = #{id}")
    Optional<String> readCustomer(long id);

    @Select("SELECT customer FROM orders WHERE id = #{id} FOR UPDATE")
    Optional<String> lockedCustomer(long id);

    @Select("SELECT next_number()")
    long nextNumber();
  }

  @Service
  static class OrderReads {
    private final OrderMapper mapper;

    OrderReads(OrderMapper mapper) {
      this.mapper = mapper;
    }

    @ReadYourWrites
    public Optional<String> customer(long id) {
      return mapper.customer(id);
    }

    @Transactional(readOnly = true)
    public Optional<String> readOnly(long id) {
      return mapper.customer(id);
    }
  }
}

package io.tidemark.spring.stacks.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
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
@ExtendWith(TestkitExtension.class)
class MyBatisIT {

  private static final AtomicLong ids = new AtomicLong();
  private static StackApplication app;

  @BeforeAll
  static void start(MySqlTopology topology) {
    app = StackApplication.start(Application.class, topology, "mybatis");
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @Test
  void aServiceReadThroughTheMapperSeesTheInsert() {
    OrderMapper mapper = app.bean(OrderMapper.class);

    StackApplication.Read<Optional<String>> read =
        app.readAfterWrite(() -> insert(mapper, "ada"), app.bean(OrderReads.class)::customer);

    assertThat(read.waitedOnTheReplica().value()).contains("ada");
  }

  @Test
  void anAnnotatedMapperMethodSeesTheInsert() {
    OrderMapper mapper = app.bean(OrderMapper.class);

    StackApplication.Read<Optional<String>> read =
        app.readAfterWrite(() -> insert(mapper, "grace"), mapper::readCustomer);

    assertThat(read.waitedOnTheReplica().value()).contains("grace");
  }

  @Test
  void inTheAutomaticModeAReadOnlyTransactionThroughTheMapperSeesTheInsert() {
    try (StackApplication automatic =
        StackApplication.start(
            Application.class, app.topology(), "mybatisauto", "tidemark.read.automatic=true")) {
      OrderMapper mapper = automatic.bean(OrderMapper.class);

      StackApplication.Read<Optional<String>> read =
          automatic.readAfterWrite(
              () -> insert(mapper, "barbara"), automatic.bean(OrderReads.class)::readOnly);

      assertThat(read.waitedOnTheReplica().value()).contains("barbara");
    }
  }

  @Test
  void inTheAutomaticModeAMapperSelectOutsideATransactionSeesTheInsert() {
    try (StackApplication automatic =
        StackApplication.start(
            Application.class, app.topology(), "mybatisselect", "tidemark.read.automatic=true")) {
      OrderMapper mapper = automatic.bean(OrderMapper.class);

      StackApplication.Read<Optional<String>> read =
          automatic.readAfterWrite(() -> insert(mapper, "margaret"), mapper::customer);

      assertThat(read.waitedOnTheReplica().value()).contains("margaret");
    }
  }

  @Test
  void onPostgresqlInTheAutomaticModeMapperReadsSeeTheInsert() {
    try (StackApplication automatic =
        StackApplication.startOnPostgres(
            Application.class, "mybatispg", "tidemark.read.automatic=true")) {
      OrderMapper mapper = automatic.bean(OrderMapper.class);

      StackApplication.Read<Optional<String>> alone =
          automatic.readAfterWrite(() -> insert(mapper, "mary"), mapper::customer);
      StackApplication.Read<Optional<String>> inTransaction =
          automatic.readAfterWrite(
              () -> insert(mapper, "frances"), automatic.bean(OrderReads.class)::readOnly);

      assertThat(alone.waitedOnTheReplica().value()).contains("mary");
      assertThat(inTransaction.waitedOnTheReplica().value()).contains("frances");
    }
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
    try (StackApplication automatic =
        StackApplication.start(
            Application.class, topology, "mybatiswrites", "tidemark.read.automatic=true")) {
      String db = "`" + automatic.db() + "`";
      automatic.createWritingFunction();
      OrderMapper mapper = automatic.bean(OrderMapper.class);
      long id = insert(mapper, "katherine");
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
      assertThat(topology.replica().gtidExecuted())
          .as("no errant transaction on the replica")
          .doesNotContain(topology.replica().serverUuid());
    }
  }

  private static long insert(OrderMapper mapper, String customer) {
    long id = ids.incrementAndGet();
    mapper.insert(id, customer);
    return id;
  }

  /** Without JPA, so that the transaction manager is the DataSource's, as with MyBatis alone. */
  @SpringBootConfiguration
  @EnableAutoConfiguration(
      exclude = {HibernateJpaAutoConfiguration.class, DataJpaRepositoriesAutoConfiguration.class})
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

package io.tidemark.spring.stacks.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.TestkitExtension;
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
 * method or on the mapper method itself. MyBatis-Spring takes the connection from the application's
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

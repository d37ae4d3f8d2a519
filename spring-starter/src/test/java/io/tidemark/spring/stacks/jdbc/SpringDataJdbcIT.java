package io.tidemark.spring.stacks.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.data.annotation.Id;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.relational.core.mapping.Table;
import org.springframework.data.repository.ListCrudRepository;
import org.springframework.stereotype.Service;

/**
 * Spring Data JDBC ({@code spring-boot-starter-data-jdbc}): a repository's {@code save}, then a
 * read through the repository under {@code @ReadYourWrites} (on a service method, or on the
 * repository's own query method), on the replica after the wait. Its queries take the connection
 * from the application's {@code DataSource} through Spring's {@code DataSourceUtils}, as
 * JdbcTemplate's do. In the automatic mode, its inherited and derived query methods are reads
 * without an annotation.
 */
@ExtendWith(TestkitExtension.class)
class SpringDataJdbcIT {

  private static StackApplication app;

  @BeforeAll
  static void start(MySqlTopology topology) {
    app = StackApplication.start(Application.class, topology, "datajdbc");
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @Test
  void aServiceReadThroughTheRepositorySeesTheSavedAggregate() {
    Orders orders = app.bean(Orders.class);

    StackApplication.Read<Optional<Order>> read =
        app.readAfterWrite(
            () -> orders.save(new Order(null, "ada")).id(), app.bean(OrderReads.class)::find);

    assertThat(read.waitedOnTheReplica().value()).map(Order::customer).contains("ada");
  }

  @Test
  void anAnnotatedRepositoryMethodSeesTheSavedAggregate() {
    Orders orders = app.bean(Orders.class);

    StackApplication.Read<Optional<Order>> read =
        app.readAfterWrite(() -> orders.save(new Order(null, "grace")).id(), orders::readById);

    assertThat(read.waitedOnTheReplica().value()).map(Order::customer).contains("grace");
  }

  @Test
  void inTheAutomaticModeUnannotatedRepositoryReadsWaitOnTheReplica() {
    try (StackApplication automatic =
        StackApplication.start(
            Application.class, app.topology(), "datajdbcauto", "tidemark.read.automatic=true")) {
      unannotatedRepositoryReadsWait(automatic);
    }
  }

  @Test
  void onPostgresqlInTheAutomaticModeUnannotatedRepositoryReadsWaitOnTheReplica() {
    try (StackApplication automatic =
        StackApplication.startOnPostgres(
            Application.class, "datajdbcpg", "tidemark.read.automatic=true")) {
      unannotatedRepositoryReadsWait(automatic);
    }
  }

  private static void unannotatedRepositoryReadsWait(StackApplication automatic) {
    Orders orders = automatic.bean(Orders.class);

    StackApplication.Read<Optional<Order>> inherited =
        automatic.readAfterWrite(
            () -> orders.save(new Order(null, "barbara")).id(), orders::findById);
    StackApplication.Read<List<Order>> derived =
        automatic.readAfterWrite(
            () -> orders.save(new Order(null, "edsger")).id(),
            id -> orders.findByCustomer("edsger"));

    assertThat(inherited.waitedOnTheReplica().value()).map(Order::customer).contains("barbara");
    assertThat(derived.waitedOnTheReplica().value())
        .extracting(Order::customer)
        .containsExactly("edsger");
  }

  /** Without JPA, so that the transaction manager is the DataSource's, as with Data JDBC alone. */
  @SpringBootConfiguration
  @EnableAutoConfiguration(
      exclude = {HibernateJpaAutoConfiguration.class, DataJpaRepositoriesAutoConfiguration.class})
  @EnableJdbcRepositories(considerNestedRepositories = true)
  @Import(OrderReads.class)
  static class Application {}

  @Table("orders")
  record Order(@Id @Nullable Long id, String customer) {}

  interface Orders extends ListCrudRepository<Order, Long> {
    List<Order> findByCustomer(String customer);

    @ReadYourWrites
    @Query("SELECT id, customer FROM orders WHERE id = :id")
    Optional<Order> readById(long id);
  }

  @Service
  static class OrderReads {
    private final Orders orders;

    OrderReads(Orders orders) {
      this.orders = orders;
    }

    @ReadYourWrites
    public Optional<Order> find(long id) {
      return orders.findById(id);
    }
  }
}

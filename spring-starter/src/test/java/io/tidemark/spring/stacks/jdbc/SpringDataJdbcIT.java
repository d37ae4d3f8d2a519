package io.tidemark.spring.stacks.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.ApplicationWithoutJpa;
import io.tidemark.spring.stacks.AutomaticStackContract;
import io.tidemark.spring.stacks.StackApplication;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
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
class SpringDataJdbcIT extends AutomaticStackContract {

  SpringDataJdbcIT() {
    super(Application.class, "datajdbc");
  }

  /** A repository's {@code save}. */
  @Override
  protected long write(StackApplication app, String customer) {
    return app.bean(Orders.class).save(new Order(null, customer)).id();
  }

  /** A service read through the repository. */
  @Override
  protected Optional<String> readYourWrites(StackApplication app, long id) {
    return app.bean(OrderReads.class).find(id).map(Order::customer);
  }

  @Test
  void anAnnotatedRepositoryMethodSeesTheSavedAggregate() {
    StackApplication.Read<Optional<Order>> read =
        app.readAfterWrite(() -> write(app, "grace"), app.bean(Orders.class)::readById);

    assertThat(read.waitedOnTheReplica().value()).map(Order::customer).contains("grace");
  }

  /** The repository's inherited and derived query methods. */
  @Override
  protected void unannotatedReadsSeeTheWrites(StackApplication automatic) {
    Orders orders = automatic.bean(Orders.class);

    StackApplication.Read<Optional<Order>> inherited =
        automatic.readAfterWrite(() -> write(automatic, "barbara"), orders::findById);
    StackApplication.Read<List<Order>> derived =
        automatic.readAfterWrite(
            () -> write(automatic, "edsger"), id -> orders.findByCustomer("edsger"));

    assertThat(inherited.waitedOnTheReplica().value()).map(Order::customer).contains("barbara");
    assertThat(derived.waitedOnTheReplica().value())
        .extracting(Order::customer)
        .containsExactly("edsger");
  }

  @ApplicationWithoutJpa
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

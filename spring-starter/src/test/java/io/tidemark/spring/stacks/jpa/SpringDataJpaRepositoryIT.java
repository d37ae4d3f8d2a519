package io.tidemark.spring.stacks.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.ConsistencyContext;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.spring.stacks.StackContract;
import io.tidemark.spring.stacks.orders.OrderEntity;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;

/**
 * Spring Data JPA with {@code @ReadYourWrites} on the repository itself, Boot's JPA defaults: a
 * method of the repository interface annotated directly (an inherited one such as {@code findById}
 * redeclared for it) is one read on the replica after the wait; an inherited method not redeclared
 * is no read. A class-level annotation makes every method a read, inherited {@code save} too, which
 * the read-only pinned connection then refuses before anything reaches a server.
 */
class SpringDataJpaRepositoryIT extends StackContract {

  SpringDataJpaRepositoryIT() {
    super(Application.class, "datajpa");
  }

  /** A repository's {@code save}. */
  @Override
  protected long write(StackApplication app, String customer) {
    return app.bean(Orders.class).save(new OrderEntity(customer)).id();
  }

  /** The repository's {@code findById}, redeclared to be annotated. */
  @Override
  protected Optional<String> readYourWrites(StackApplication app, long id) {
    return app.bean(Orders.class).findById(id).map(OrderEntity::customer);
  }

  @Test
  void anAnnotatedQueryMethodSeesTheSavedEntity() {
    Orders orders = app.bean(Orders.class);

    StackApplication.Read<List<OrderEntity>> read =
        app.readAfterWrite(() -> write(app, "grace"), id -> orders.findByCustomer("grace"));

    assertThat(read.waitedOnTheReplica().value())
        .extracting(OrderEntity::customer)
        .containsExactly("grace");
  }

  @Test
  void anInheritedMethodNotRedeclaredIsNoRead() {
    Orders orders = app.bean(Orders.class);

    StackApplication.Read<Boolean> read =
        app.readAfterWrite(() -> write(app, "edsger"), orders::existsById);

    assertThat(read.records()).as("no read of the read path").isEmpty();
    assertThat(read.value()).as("read on the source").isTrue();
  }

  @Test
  void aClassLevelAnnotationMakesInheritedMethodsReads() {
    Orders orders = app.bean(Orders.class);
    OrderReads reads = app.bean(OrderReads.class);

    StackApplication.Read<Optional<OrderEntity>> read =
        app.readAfterWrite(() -> write(app, "barbara"), reads::findById);

    assertThat(read.waitedOnTheReplica().value()).map(OrderEntity::customer).contains("barbara");
  }

  @Test
  void aRepositorysReadsAreObservedUnderItsInterfaceNotItsProxy() {
    Orders orders = app.bean(Orders.class);
    OrderReads reads = app.bean(OrderReads.class);
    app.readAfterWrite(() -> write(app, "frances"), orders::findById);
    app.readAfterWrite(() -> write(app, "adele"), reads::findById);

    assertThat(app.bean(MeterRegistry.class).find("tidemark.read").timers())
        .extracting(timer -> timer.getId().getTag("method"))
        .contains("Orders.findById", "OrderReads.findById")
        .noneMatch(method -> method.contains("$"));
  }

  @Test
  void aSaveOnAClassLevelAnnotatedRepositoryIsRefusedAndWritesNothing() {
    OrderReads reads = app.bean(OrderReads.class);
    MySqlTopology topology = app.topology();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThatThrownBy(() -> reads.save(new OrderEntity("mallory")))
          .isInstanceOf(DataAccessException.class)
          .satisfies(
              e ->
                  assertThat(NestedExceptionUtils.getMostSpecificCause(e))
                      .hasMessageContaining("Connection is read-only"));
      assertThat(binding.context().gtids().isEmpty()).as("nothing committed").isTrue();
    }
    assertThat(
            topology
                .source()
                .queryString(
                    "SELECT COUNT(*) FROM `" + app.db() + "`.orders WHERE customer = 'mallory'"))
        .isEqualTo("0");
    app.assertNoErrantTransactionOnTheReplica();
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @EnableJpaRepositories(considerNestedRepositories = true)
  @AutoConfigurationPackage(basePackageClasses = OrderEntity.class)
  static class Application {}

  /** Every method a read, by the interface's annotation: fit for a repository that only reads. */
  @ReadYourWrites
  interface OrderReads extends JpaRepository<OrderEntity, Long> {}

  // tag::repository[]
  interface Orders extends JpaRepository<OrderEntity, Long> {
    @Override
    @ReadYourWrites // an inherited method is annotated where it is redeclared
    Optional<OrderEntity> findById(Long id);

    @ReadYourWrites
    List<OrderEntity> findByCustomer(String customer);
  }
  // end::repository[]
}

package io.tidemark.spring.stacks.automatic;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.spring.stacks.StackIT;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Application;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Customers;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Orders;
import io.tidemark.spring.stacks.orders.OrderEntity;
import java.util.Optional;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * Reads of the automatic mode's application that wait on the replica however its pool hands out
 * connections, run by each configuration of it as its subclass: a repository's inherited method, in
 * the transaction Spring Data opens for it, and a {@code @Transactional(readOnly = true)} service's
 * JdbcTemplate read.
 */
abstract class AutomaticReadsContract extends StackIT {

  AutomaticReadsContract(String prefix, String... settings) {
    super(Application.class, prefix, settings);
  }

  @Test
  void anInheritedRepositoryMethodWaitsOnTheReplica() {
    StackApplication.Read<Optional<OrderEntity>> read = afterSaving("ada", orders()::findById);

    assertThat(read.waitedOnTheReplica().value()).map(OrderEntity::customer).contains("ada");
  }

  @Test
  void aReadOnlyTransactionalServiceWaitsOnTheReplica() {
    StackApplication.Read<String> read = afterSaving("edsger", customers()::of);

    assertThat(read.waitedOnTheReplica().value()).isEqualTo("edsger");
  }

  /** A repository's {@code save}. */
  @Override
  protected final long write(StackApplication app, String customer) {
    return app.bean(Orders.class).save(new OrderEntity(customer)).id();
  }

  /** {@link StackApplication#readAfterWrite} of an order saved for {@code customer}. */
  final <T> StackApplication.Read<T> afterSaving(String customer, LongFunction<T> read) {
    return app.readAfterWrite(() -> write(app, customer), read);
  }

  final Orders orders() {
    return app.bean(Orders.class);
  }

  final Customers customers() {
    return app.bean(Customers.class);
  }
}

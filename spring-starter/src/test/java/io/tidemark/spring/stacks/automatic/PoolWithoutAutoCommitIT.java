package io.tidemark.spring.stacks.automatic;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.stacks.StackApplication;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Application;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Customers;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.OrderEntity;
import io.tidemark.spring.stacks.automatic.AutomaticModeIT.Orders;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application whose pool hands out connections with auto-commit off and tells Hibernate so
 * ({@code provider_disables_autocommit}), as generated JHipster applications do: Hibernate then
 * never switches auto-commit off itself, and ends a transaction with the connection's commit or
 * rollback, which the driver refuses on a connection in auto-commit. A replica read's connection is
 * handed to such an application as its pool's are.
 */
@ExtendWith(TestkitExtension.class)
class PoolWithoutAutoCommitIT {

  private static StackApplication app;

  @BeforeAll
  static void start(MySqlTopology topology) {
    app =
        StackApplication.start(
            Application.class,
            topology,
            "noautocommit",
            "tidemark.read.automatic=true",
            "spring.datasource.hikari.auto-commit=false",
            "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true");
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @Test
  void aRepositoryReadWaitsOnTheReplicaInTheApplicationsTransaction() {
    Orders orders = app.bean(Orders.class);

    StackApplication.Read<Optional<OrderEntity>> read =
        app.readAfterWrite(() -> orders.save(new OrderEntity("ada")).id, orders::findById);

    assertThat(read.waitedOnTheReplica().value()).map(o -> o.customer).contains("ada");
  }

  @Test
  void aReadOnlyTransactionalServiceWaitsOnTheReplica() {
    Orders orders = app.bean(Orders.class);
    Customers customers = app.bean(Customers.class);

    StackApplication.Read<String> read =
        app.readAfterWrite(() -> orders.save(new OrderEntity("grace")).id, customers::of);

    assertThat(read.waitedOnTheReplica().value()).isEqualTo("grace");
  }
}

package io.tidemark.demo;

import io.tidemark.spring.ReadYourWrites;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * The orders service's reads as the quick start writes them: each method {@code @ReadYourWrites},
 * on a replica that has the caller's writes.
 */
@Service
@ConditionalOnProperty(name = "demo.reads", havingValue = "annotated", matchIfMissing = true)
class AnnotatedOrderReads implements OrderReads {

  private final JdbcTemplate jdbc;
  private final OrderRepository orders;

  AnnotatedOrderReads(JdbcTemplate jdbc, OrderRepository orders) {
    this.jdbc = jdbc;
    this.orders = orders;
  }

  @Override
  @ReadYourWrites
  public Optional<Order> find(long id) {
    return jdbc.query(BY_ID, ORDER, id).stream().findFirst();
  }

  /**
   * One of a customer's orders, read under the customer's scope instead of a header token, through
   * JPA with Spring Boot's defaults: the request's EntityManager is open before this read begins.
   */
  @Override
  @ReadYourWrites(scope = "'customer:' + #customer")
  public Optional<Order> findOf(String customer, long id) {
    return orders.findByIdAndCustomer(id, customer).map(OrderEntity::toOrder);
  }

  /** A customer's orders, including ones written on another instance without a header. */
  @Override
  @ReadYourWrites(scope = "'customer:' + #customer")
  public List<Order> forCustomer(String customer) {
    return jdbc.query(BY_CUSTOMER, ORDER, customer);
  }
}

package io.tidemark.demo;

import io.tidemark.ConsistencyContext;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * The same reads with no annotation, for the starter's automatic mode ({@code
 * tidemark.read.automatic=true}): a JdbcTemplate query outside a transaction and a Spring Data
 * finder are reads of their own. The customer's scope, which an annotation would name, is added to
 * the request's context before the read.
 */
@Service
@ConditionalOnProperty(name = "demo.reads", havingValue = "automatic")
class AutomaticOrderReads implements OrderReads {

  private final JdbcTemplate jdbc;
  private final OrderRepository orders;
  private final ScopeStore scopes;

  AutomaticOrderReads(JdbcTemplate jdbc, OrderRepository orders, ScopeStore scopes) {
    this.jdbc = jdbc;
    this.orders = orders;
    this.scopes = scopes;
  }

  @Override
  public Optional<Order> find(long id) {
    return jdbc.query(BY_ID, ORDER, id).stream().findFirst();
  }

  @Override
  public Optional<Order> findOf(String customer, long id) {
    requireScopeOf(customer);
    return orders.findByIdAndCustomer(id, customer).map(OrderEntity::toOrder);
  }

  @Override
  public List<Order> forCustomer(String customer) {
    requireScopeOf(customer);
    return jdbc.query(BY_CUSTOMER, ORDER, customer);
  }

  private void requireScopeOf(String customer) {
    scopes.get(ScopeKey.of("customer:" + customer)).applyTo(ConsistencyContext.current());
  }
}

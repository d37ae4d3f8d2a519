package io.tidemark.demo;

import io.tidemark.spring.ReadYourWrites;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Service;

/** Reads of the orders service, each on a replica that has the caller's writes. */
@Service
class OrderReads {

  static final RowMapper<Order> ORDER =
      (rs, row) -> new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));

  private final JdbcTemplate jdbc;
  private final OrderRepository orders;

  OrderReads(JdbcTemplate jdbc, OrderRepository orders) {
    this.jdbc = jdbc;
    this.orders = orders;
  }

  @ReadYourWrites
  public Optional<Order> find(long id) {
    return jdbc
        .query("SELECT id, customer, status, revision FROM orders WHERE id = ?", ORDER, id)
        .stream()
        .findFirst();
  }

  /**
   * One of a customer's orders, read under the customer's scope instead of a header token, through
   * JPA with Spring Boot's defaults: the request's EntityManager is open before this read begins.
   */
  @ReadYourWrites(scope = "'customer:' + #customer")
  public Optional<Order> findOf(String customer, long id) {
    return orders.findByIdAndCustomer(id, customer).map(OrderEntity::toOrder);
  }

  /** A customer's orders, including ones written on another instance without a header. */
  @ReadYourWrites(scope = "'customer:' + #customer")
  public List<Order> forCustomer(String customer) {
    return jdbc.query(
        "SELECT id, customer, status, revision FROM orders WHERE customer = ? ORDER BY id",
        ORDER,
        customer);
  }
}

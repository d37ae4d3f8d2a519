package io.tidemark.demo;

import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.RowMapper;

/**
 * Reads of the orders service: annotated as the quick start says ({@code demo.reads=annotated}, the
 * default), or with no annotation in the starter's automatic mode ({@code demo.reads=automatic}).
 */
interface OrderReads {

  RowMapper<Order> ORDER =
      (rs, row) -> new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));

  /** One order by id, as {@link #ORDER} maps it. */
  String BY_ID = "SELECT id, customer, status, revision FROM orders WHERE id = ?";

  /** A customer's orders, as {@link #ORDER} maps them. */
  String BY_CUSTOMER =
      "SELECT id, customer, status, revision FROM orders WHERE customer = ? ORDER BY id";

  Optional<Order> find(long id);

  /** One of a customer's orders, under the customer's scope instead of a header token. */
  Optional<Order> findOf(String customer, long id);

  /** A customer's orders, including ones written on another instance without a header. */
  List<Order> forCustomer(String customer);
}

package io.tidemark.demo;

import io.tidemark.spring.ScopedWrites;
import java.sql.PreparedStatement;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.cache.annotation.CachePut;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Writes of the orders service; each commit's GTID is captured by the starter. */
@Service
class OrderWrites {

  private final JdbcTemplate jdbc;

  OrderWrites(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Creates an order; the customer's scope learns of it, so any instance reads it back. */
  @ScopedWrites("'customer:' + #customer")
  public long create(String customer) {
    GeneratedKeyHolder key = new GeneratedKeyHolder();
    jdbc.update(
        connection -> {
          PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO orders (customer, status, revision) VALUES (?, 'NEW', 1)",
                  // Named: PostgreSQL would return every column as a key.
                  new String[] {"id"});
          insert.setString(1, customer);
          return insert;
        },
        key);
    return Objects.requireNonNull(key.getKey(), "generated id").longValue();
  }

  /**
   * Changes the status and raises the revision; the new version goes into the shared cache, which
   * refuses it should a newer one already be there.
   */
  @Transactional
  @CachePut(cacheNames = "orders", key = "#id")
  public Optional<Order> updateStatus(long id, String status) {
    return update(id, status, null);
  }

  /**
   * Changes the status of one of the customer's orders; like {@link #create}, the customer's scope
   * learns of it, so a client that keeps no token reads it back on any instance.
   */
  @Transactional
  @ScopedWrites("'customer:' + #customer")
  public Optional<Order> updateStatusOf(String customer, long id, String status) {
    return update(id, status, customer);
  }

  private Optional<Order> update(long id, String status, @Nullable String customer) {
    // Two statements: PostgreSQL cannot type a parameter that is only compared with NULL.
    int updated =
        customer == null
            ? jdbc.update(
                "UPDATE orders SET status = ?, revision = revision + 1 WHERE id = ?", status, id)
            : jdbc.update(
                "UPDATE orders SET status = ?, revision = revision + 1"
                    + " WHERE id = ? AND customer = ?",
                status,
                id,
                customer);
    if (updated == 0) {
      return Optional.empty();
    }
    return Optional.ofNullable(jdbc.queryForObject(OrderReads.BY_ID, OrderReads.ORDER, id));
  }
}

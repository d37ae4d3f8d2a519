package com.example.shop;

import io.tidemark.spring.ReadYourWrites;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

// tag::orders[]
@Service
class Orders {
  private final JdbcTemplate jdbc; // or a Spring Data repository, JPA, MyBatis

  Orders(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Transactional
  public void create(long id, String customer) {
    jdbc.update("INSERT INTO orders (id, customer) VALUES (?, ?)", id, customer);
  }

  @ReadYourWrites(timeoutString = "${orders.read-timeout:300ms}")
  @Transactional(readOnly = true) // optional; begins on the connection Tidemark chose
  public Optional<String> customer(long id) {
    return jdbc.queryForList("SELECT customer FROM orders WHERE id = ?", String.class, id).stream()
        .findFirst();
  }
}
// end::orders[]

package io.tidemark.demo;

import io.tidemark.spring.Revisioned;

/** An order as stored: its status changes raise its revision. */
public record Order(long id, String customer, String status, long revision) implements Revisioned {

  /** The text the shared cache stores. */
  String encode() {
    return id + "|" + revision + "|" + status + "|" + customer;
  }

  static Order decode(String text) {
    String[] parts = text.split("\\|", 4);
    return new Order(Long.parseLong(parts[0]), parts[3], parts[2], Long.parseLong(parts[1]));
  }
}

package com.example.shop;

import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

// tag::controller[]
@RestController
class OrderController {
  private final Orders orders;

  OrderController(Orders orders) {
    this.orders = orders;
  }

  @PostMapping("/orders/{id}")
  ResponseEntity<Void> create(@PathVariable long id, @RequestParam String customer) {
    orders.create(id, customer);
    return ResponseEntity.created(URI.create("/orders/" + id)).build();
  }

  @GetMapping("/orders/{id}")
  ResponseEntity<String> customer(@PathVariable long id) {
    return ResponseEntity.of(orders.customer(id)); // 404 when the read finds no order
  }
}
// end::controller[]

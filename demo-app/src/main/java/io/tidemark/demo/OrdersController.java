package io.tidemark.demo;

import java.util.List;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * The orders API. Reads take {@code tidemark=false} to skip Tidemark and read the replica at once,
 * as a service without it would, and {@code cache=false} to skip the cache. Checkout calls the
 * other instance to create the order, so the token crosses a service boundary, then reads the order
 * here.
 */
@RestController
@RequestMapping("/api")
class OrdersController {

  private final OrderWrites writes;
  private final OrderReads reads;
  private final CachedOrders cached;
  private final PlainReplicaReads plain;
  private final RestClient peer;
  private final Environment environment;

  OrdersController(
      OrderWrites writes,
      OrderReads reads,
      CachedOrders cached,
      PlainReplicaReads plain,
      RestClient peer,
      Environment environment) {
    this.writes = writes;
    this.reads = reads;
    this.cached = cached;
    this.plain = plain;
    this.peer = peer;
    this.environment = environment;
  }

  @PostMapping("/orders")
  ResponseEntity<Order> create(@RequestParam String customer) {
    long id = writes.create(customer);
    return ResponseEntity.status(HttpStatus.CREATED).body(new Order(id, customer, "NEW", 1));
  }

  @GetMapping("/orders/{id}")
  ResponseEntity<ReadReply> find(
      @PathVariable long id,
      @RequestParam(defaultValue = "true") boolean tidemark,
      @RequestParam(defaultValue = "true") boolean cache) {
    ReadReply reply =
        !tidemark
            ? ReadReply.plain(plain.find(id))
            : ReadReply.routed(cache ? cached.find(id) : reads.find(id));
    return ResponseEntity.status(reply.found() ? HttpStatus.OK : HttpStatus.NOT_FOUND).body(reply);
  }

  @GetMapping("/customers/{customer}/orders")
  List<Order> forCustomer(@PathVariable String customer) {
    return reads.forCustomer(customer);
  }

  /** One of the customer's orders, read under the customer's scope: no token needed. */
  @GetMapping("/customers/{customer}/orders/{id}")
  ResponseEntity<ReadReply> findOf(
      @PathVariable String customer,
      @PathVariable long id,
      @RequestParam(defaultValue = "true") boolean tidemark) {
    ReadReply reply =
        !tidemark
            ? ReadReply.plain(plain.find(id).filter(o -> o.customer().equals(customer)))
            : ReadReply.routed(reads.findOf(customer, id));
    return ResponseEntity.status(reply.found() ? HttpStatus.OK : HttpStatus.NOT_FOUND).body(reply);
  }

  @PutMapping("/customers/{customer}/orders/{id}/status")
  ResponseEntity<Order> updateStatusOf(
      @PathVariable String customer, @PathVariable long id, @RequestParam String status) {
    return ResponseEntity.of(writes.updateStatusOf(customer, id, status));
  }

  @PutMapping("/orders/{id}/status")
  ResponseEntity<Order> updateStatus(@PathVariable long id, @RequestParam String status) {
    return ResponseEntity.of(writes.updateStatus(id, status));
  }

  @PostMapping("/checkout")
  ResponseEntity<ReadReply> checkout(@RequestParam String customer) {
    Order created =
        peer.post().uri("/api/orders?customer={customer}", customer).retrieve().body(Order.class);
    if (created == null) {
      throw new IllegalStateException("the peer answered no order");
    }
    ReadReply reply = ReadReply.routed(reads.find(created.id()));
    return ResponseEntity.status(reply.found() ? HttpStatus.OK : HttpStatus.NOT_FOUND).body(reply);
  }

  @PostMapping("/scenario")
  Scenario.Result scenario(
      @RequestParam(defaultValue = "40") int clients,
      @RequestParam(defaultValue = "true") boolean tidemark) {
    if (clients < 1 || clients > 1_000) {
      throw new IllegalArgumentException("clients must be 1 to 1000: " + clients);
    }
    String self = "http://127.0.0.1:" + environment.getRequiredProperty("local.server.port");
    String other = environment.getRequiredProperty("demo.peer-url");
    return new Scenario(self, other).run(clients, tidemark);
  }
}

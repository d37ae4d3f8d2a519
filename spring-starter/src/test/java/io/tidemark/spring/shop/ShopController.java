package io.tidemark.spring.shop;

import io.tidemark.spring.shop.ShopApplication.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The shop's HTTP face: create an order, read it back. */
@RestController
class ShopController {

  private final ShopApplication.Writes writes;
  private final ShopApplication.Reads reads;
  private final ShopApplication.JpaReads jpaReads;
  private final ShopApplication.JpaWrites jpaWrites;

  ShopController(
      ShopApplication.Writes writes,
      ShopApplication.Reads reads,
      ShopApplication.JpaReads jpaReads,
      ShopApplication.JpaWrites jpaWrites) {
    this.writes = writes;
    this.reads = reads;
    this.jpaReads = jpaReads;
    this.jpaWrites = jpaWrites;
  }

  /** A JPA look-up on the source first, as many requests begin, then a JPA read. */
  @GetMapping("/jpa/server-after-lookup")
  String serverAfterLookup() {
    jpaReads.count();
    return jpaReads.server();
  }

  /** A JPA read, then a JPA write in the same request. */
  @PostMapping("/jpa/orders/{id}/status")
  ResponseEntity<String> readThenWrite(@PathVariable long id, @RequestParam String value) {
    String before = jpaReads.status(id).orElse("none");
    jpaWrites.setStatus(id, value);
    return ResponseEntity.ok(before + "->" + value);
  }

  /**
   * A form's save, as server-rendered applications write one: the order loaded, the fields the form
   * sent set, the whole entity saved (no {@code @Version}).
   */
  @PostMapping("/jpa/orders/{id}/edit")
  ResponseEntity<Void> edit(
      @PathVariable long id,
      @RequestParam(required = false) String status,
      @RequestParam(required = false) String customer) {
    ShopApplication.OrderEntity order = jpaReads.find(id).orElseThrow();
    if (status != null) {
      order.status = status;
    }
    if (customer != null) {
      order.customer = customer;
    }
    jpaWrites.save(order);
    return ResponseEntity.noContent().build();
  }

  /** A JPA read. */
  @GetMapping("/jpa/orders/{id}/status")
  ResponseEntity<String> status(@PathVariable long id) {
    return ResponseEntity.of(jpaReads.status(id));
  }

  @PostMapping("/orders/{id}")
  ResponseEntity<Void> create(@PathVariable long id, @RequestParam String customer) {
    writes.create(id, customer);
    return ResponseEntity.status(HttpStatus.CREATED).build();
  }

  /** A write in a transaction of its own. */
  @PostMapping("/orders/{id}/transactional")
  ResponseEntity<Void> createInTransaction(@PathVariable long id, @RequestParam String customer) {
    writes.createInNewTransaction(id, customer);
    return ResponseEntity.status(HttpStatus.CREATED).build();
  }

  @GetMapping("/orders/{id}")
  ResponseEntity<Order> find(@PathVariable long id) {
    return ResponseEntity.of(reads.find(id));
  }

  @PostMapping("/customers/{customer}/orders/{id}")
  ResponseEntity<Void> createForCustomer(@PathVariable String customer, @PathVariable long id) {
    writes.createInScope(id, customer);
    return ResponseEntity.status(HttpStatus.CREATED).build();
  }

  @GetMapping("/customers/{customer}/orders/{id}")
  ResponseEntity<Order> findForCustomer(@PathVariable String customer, @PathVariable long id) {
    return ResponseEntity.of(reads.findForCustomer(customer, id));
  }

  /** A page with two reads, as one that shows an order and then its customer's other orders. */
  @GetMapping("/orders/{id}/twice")
  ResponseEntity<Order> findTwice(@PathVariable long id) {
    reads.find(id);
    return ResponseEntity.of(reads.find(id));
  }

  @GetMapping("/orders/{id}/strict")
  ResponseEntity<Order> findOrFail(@PathVariable long id) {
    return ResponseEntity.of(reads.findOrFail(id));
  }
}

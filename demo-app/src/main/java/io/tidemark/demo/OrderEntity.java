package io.tidemark.demo;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order as JPA maps it, for the reads that go through a Spring Data repository. */
@Entity
@Table(name = "orders")
class OrderEntity {

  @Id private long id;
  private String customer = "";
  private String status = "";
  private long revision;

  protected OrderEntity() {}

  Order toOrder() {
    return new Order(id, customer, status, revision);
  }
}

package io.tidemark.spring.stacks.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An order of the stack tests' {@code orders} table, as the JPA applications map it. It has a
 * package of its own, which they add to their auto-configuration packages for its sake: a package
 * with the other stacks' tests would have their mappers and repositories found too.
 */
@Entity
@Table(name = "orders")
public class OrderEntity {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  private String customer;

  protected OrderEntity() {}

  public OrderEntity(String customer) {
    this.customer = customer;
  }

  public Long id() {
    return id;
  }

  public String customer() {
    return customer;
  }
}

package io.tidemark.demo;

import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;

/** JPA reads of orders, with Spring Boot's JPA defaults (open-in-view on). */
interface OrderRepository extends JpaRepository<OrderEntity, Long> {

  Optional<OrderEntity> findByIdAndCustomer(long id, String customer);
}

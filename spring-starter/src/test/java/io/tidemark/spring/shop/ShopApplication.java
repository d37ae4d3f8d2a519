package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ReadPolicy;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.Replication;
import io.tidemark.spring.Revisioned;
import io.tidemark.spring.ScopedWrites;
import io.tidemark.testkit.SkewedClock;
import io.tidemark.testkit.mysql.MySqlTopology;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A small orders application on the testkit's topology, as a user would write it: JdbcTemplate
 * writes, reads under {@code @ReadYourWrites} through JdbcTemplate and Spring Data JPA.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableJpaRepositories(considerNestedRepositories = true)
@Import({
  ShopApplication.Writes.class,
  ShopApplication.Reads.class,
  ShopApplication.JpaReads.class,
  ShopApplication.JpaWrites.class,
  ShopApplication.ReplicaInfo.class,
  ShopApplication.ReactiveRoutes.class,
  ShopApplication.TokenClock.class,
  ShopController.class
})
class ShopApplication {

  static final String SECRET = "a-secret-these-tests-share-0123456789";

  /** The orders table, in SQL both databases take. */
  static final String ORDERS =
      "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(40) NOT NULL,"
          + " status VARCHAR(20) NOT NULL, revision BIGINT NOT NULL)";

  /** Starts one instance on {@code db}; {@code extra} are more properties, key=value. */
  static ConfigurableApplicationContext start(MySqlTopology topology, String db, String... extra) {
    return start(WebApplicationType.NONE, Replication.mysql(topology, db), extra);
  }

  /** Starts one instance as a web server on a free port. */
  static ConfigurableApplicationContext startWeb(
      MySqlTopology topology, String db, String... extra) {
    return start(WebApplicationType.SERVLET, Replication.mysql(topology, db), extra);
  }

  /**
   * Starts one instance as a reactive web server on a free port, with Reactor's automatic context
   * propagation as the starter requires it.
   */
  static ConfigurableApplicationContext startReactive(Replication replication, String... extra) {
    String[] properties = Arrays.copyOf(extra, extra.length + 1);
    properties[extra.length] = "spring.reactor.context-propagation=auto";
    return start(WebApplicationType.REACTIVE, replication, properties);
  }

  private static ConfigurableApplicationContext start(
      WebApplicationType web, Replication replication, String... extra) {
    Map<String, Object> properties = replication.applicationProperties("shop", SECRET);
    properties.put("spring.jpa.hibernate.ddl-auto", "none");
    properties.put("server.port", "0");
    for (String pair : extra) {
      int equals = pair.indexOf('=');
      properties.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    SpringApplication application =
        new SpringApplicationBuilder(ShopApplication.class).web(web).properties(properties).build();
    return application.run();
  }

  /** A new database {@code name} on {@code topology} with the shop's schema, on the replica too. */
  static String database(MySqlTopology topology, String name) {
    String db = topology.createDatabase(name);
    Replication.mysql(topology, db).execute(ORDERS);
    return db;
  }

  /** Makes the insert of an order of customer {@code slow} run {@code seconds} on the source. */
  static void slowInsertsOfCustomerSlow(MySqlTopology topology, String db, int seconds) {
    topology
        .source()
        .execute(
            "CREATE TRIGGER `"
                + db
                + "`.slow_insert BEFORE INSERT ON `"
                + db
                + "`.orders FOR EACH ROW BEGIN IF NEW.customer = 'slow' THEN DO SLEEP("
                + seconds
                + "); END IF; END");
  }

  /** Waits until {@code count} counts one on {@code topology}'s source. */
  static void awaitOnSource(MySqlTopology topology, String count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!"1".equals(topology.source().queryString(count))) {
      assertThat(System.nanoTime()).as(count).isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /**
   * With {@code shop.token-clock-skew} set, this instance's clock runs that far ahead (behind when
   * negative) of the others': the starter stamps and ages its tokens with it.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty("shop.token-clock-skew")
  static class TokenClock {

    @Bean
    SkewedClock tokenClock(@Value("${shop.token-clock-skew}") Duration skew) {
      return new SkewedClock(skew);
    }
  }

  /** The shop's reactive face: each handler runs its blocking JDBC off the event loop. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
  static class ReactiveRoutes {

    @Bean
    RouterFunction<ServerResponse> reactiveShop(Writes writes, Reads reads) {
      return RouterFunctions.route()
          .POST(
              "/reactive/orders/{id}",
              request ->
                  blocking(
                          () -> {
                            writes.create(
                                id(request), request.queryParam("customer").orElseThrow());
                            return HttpStatus.CREATED;
                          })
                      .flatMap(status -> ServerResponse.status(status).build()))
          .GET(
              "/reactive/orders/{id}",
              request ->
                  blocking(() -> reads.find(id(request)))
                      .flatMap(
                          order ->
                              order.isPresent()
                                  ? ServerResponse.ok().bodyValue(order.get())
                                  : ServerResponse.notFound().build()))
          .build();
    }

    private static <T> Mono<T> blocking(Callable<T> work) {
      return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }

    private static long id(ServerRequest request) {
      return Long.parseLong(request.pathVariable("id"));
    }
  }

  record Order(long id, String customer, String status, long revision) implements Revisioned {}

  @Service
  static class Writes {
    private final JdbcTemplate jdbc;

    Writes(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    void create(long id, String customer) {
      jdbc.update("INSERT INTO orders VALUES (?, ?, 'NEW', 1)", id, customer);
    }

    @ScopedWrites("'customer:' + #customer")
    public void createInScope(long id, String customer) {
      create(id, customer);
    }

    void update(long id, String status) {
      jdbc.update("UPDATE orders SET status = ?, revision = revision + 1 WHERE id = ?", status, id);
    }

    /** A scoped write inside this outer transaction: it commits only when this returns. */
    @Transactional
    public void createInScopeInOuterTransaction(long id, String customer, Writes self) {
      self.createInScope(id, customer);
    }

    /**
     * Reads (taking this transaction's read view), has another transaction commit the order, then
     * reads it under {@code @ReadYourWrites} inside this transaction.
     */
    @Transactional
    public Optional<Order> readThenFindOneCommittedMeanwhile(
        long id, String customer, Writes self, Reads reads) {
      return readCommitElsewhereAndFind(id, customer, self, reads);
    }

    /** As above, in a transaction whose every statement reads what was committed before it. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public Optional<Order> readCommittedThenFindOneCommittedMeanwhile(
        long id, String customer, Writes self, Reads reads) {
      return readCommitElsewhereAndFind(id, customer, self, reads);
    }

    private Optional<Order> readCommitElsewhereAndFind(
        long id, String customer, Writes self, Reads reads) {
      jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class);
      self.createInNewTransaction(id, customer);
      return reads.find(id);
    }

    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public void createInNewTransaction(long id, String customer) {
      create(id, customer);
    }

    /** A read inside a transaction that has not read yet. */
    @Transactional
    public Optional<Order> findInTransaction(long id, Reads reads) {
      return reads.find(id);
    }

    /** Writes, then reads inside the same transaction (on the source). */
    @Transactional
    public Optional<Order> createAndRead(long id, String customer, Reads reads) {
      create(id, customer);
      return reads.find(id);
    }
  }

  @Service
  static class Reads {
    private final JdbcTemplate jdbc;

    Reads(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @ReadYourWrites(timeoutString = "${shop.read-timeout:3s}")
    public Optional<Order> find(long id) {
      return query(id);
    }

    @ReadYourWrites(timeout = 300, onTimeout = ReadPolicy.FAIL)
    public Optional<Order> findOrFail(long id) {
      return query(id);
    }

    @ReadYourWrites(timeout = 3000, scope = "'customer:' + #customer")
    public Optional<Order> findForCustomer(String customer, long id) {
      return query(id);
    }

    @ReadYourWrites(timeout = 300, minRevision = "#revision")
    public Optional<Order> findAtLeast(long id, long revision) {
      return query(id);
    }

    /** The server this read ran on, by {@code server_uuid}. */
    @ReadYourWrites(timeout = 3000)
    public String server() {
      return jdbc.queryForObject("SELECT @@server_uuid", String.class);
    }

    /** Not annotated: runs on the source like every connection outside a read. */
    public String serverOutsideRead() {
      return jdbc.queryForObject("SELECT @@server_uuid", String.class);
    }

    private Optional<Order> query(long id) {
      return jdbc
          .query(
              "SELECT id, customer, status, revision FROM orders WHERE id = ?",
              (rs, row) ->
                  new Order(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4)),
              id)
          .stream()
          .findFirst();
    }
  }

  /** Every public method a read, by the class's annotation. */
  @Service
  @ReadYourWrites(timeout = 3000)
  static class ReplicaInfo {
    private final JdbcTemplate jdbc;

    ReplicaInfo(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    public String server() {
      return jdbc.queryForObject("SELECT @@server_uuid", String.class);
    }

    @Override
    public String toString() {
      return "replica info";
    }
  }

  @Entity
  @Table(name = "orders")
  static class OrderEntity {
    @Id Long id;
    String customer;
    String status;
    Long revision;
  }

  interface OrderRepository extends JpaRepository<OrderEntity, Long> {

    @Query(value = "SELECT @@server_uuid", nativeQuery = true)
    String serverUuid();
  }

  @Service
  static class JpaReads {
    private final OrderRepository orders;

    JpaReads(OrderRepository orders) {
      this.orders = orders;
    }

    @ReadYourWrites(timeout = 3000)
    @Transactional(readOnly = true)
    public Optional<String> status(long id) {
      return orders.findById(id).map(o -> o.status);
    }

    /** The server this JPA read ran on, by {@code server_uuid}. */
    @ReadYourWrites(timeout = 3000)
    public String server() {
      return orders.serverUuid();
    }

    /** The order itself, as a form handler loads what it then changes and saves. */
    @ReadYourWrites(timeout = 3000)
    public Optional<OrderEntity> find(long id) {
      return orders.findById(id);
    }

    /** Not annotated: a JPA read on the source, as a request's first look-up would be. */
    public long count() {
      return orders.count();
    }
  }

  @Service
  static class JpaWrites {
    private final OrderRepository orders;

    JpaWrites(OrderRepository orders) {
      this.orders = orders;
    }

    @Transactional
    public void save(OrderEntity order) {
      orders.save(order);
    }

    @Transactional
    public void setStatus(long id, String status) {
      OrderEntity order = orders.findById(id).orElseThrow();
      order.status = status;
      order.revision = order.revision + 1;
    }
  }
}

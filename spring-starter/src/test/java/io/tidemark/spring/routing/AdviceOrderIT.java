package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.jdbc.ReadListener;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.autoconfigure.TopologyDatabase;
import io.tidemark.topology.ExecutionHistory;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * Where the advice runs among a bean's other advice, on the real topology: after method security
 * and caching, so that a denied call or a cache hit takes no replica connection; before the
 * transaction, so that the transaction's connection is the routed one. {@code
 * tidemark.advice-order} moves it.
 */
class AdviceOrderIT {

  @RegisterExtension static final TopologyDatabase database = new TopologyDatabase("advice");

  @BeforeAll
  static void table() {
    database
        .topology()
        .source()
        .execute("CREATE TABLE `" + database.name() + "`.orders (id INT PRIMARY KEY)");
  }

  @AfterEach
  void signOut() {
    SecurityContextHolder.clearContext();
  }

  static class Orders {
    private final JdbcTemplate jdbc;

    Orders(DataSource dataSource) {
      this.jdbc = new JdbcTemplate(dataSource);
    }

    @Transactional
    public void create(int id) {
      jdbc.update("INSERT INTO orders VALUES (?)", id);
    }

    @ReadYourWrites
    @Cacheable("orders")
    @PreAuthorize("hasRole('CLERK')")
    @Transactional(readOnly = true)
    public boolean exists(int id) {
      return jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = ?", Integer.class, id) > 0;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  @EnableMethodSecurity
  @EnableTransactionManagement
  static class App {
    @Bean
    Orders orders(DataSource dataSource) {
      return new Orders(dataSource);
    }

    @Bean
    JdbcTransactionManager transactionManager(DataSource dataSource) {
      return new JdbcTransactionManager(dataSource);
    }

    @Bean
    ConcurrentMapCacheManager cacheManager() {
      return new ConcurrentMapCacheManager("orders");
    }

    @Bean
    Reads reads() {
      return new Reads();
    }
  }

  /** Counts the reads that took the read path, whether they were then served or failed. */
  static class Reads implements ReadListener {
    final AtomicInteger started = new AtomicInteger();

    @Override
    public Read started(String name) {
      started.incrementAndGet();
      return Read.NONE;
    }
  }

  private static ApplicationContextRunner runner() {
    return database.runner("a").withUserConfiguration(App.class);
  }

  @Test
  void aCacheHitAndADeniedCallTakeNoReplicaConnection() {
    runner()
        .run(
            context -> {
              Orders orders = context.getBean(Orders.class);
              int id = 1;
              signIn("ROLE_CLERK");
              try (ConsistencyContext.Binding request = ConsistencyContext.open()) {
                orders.create(id);
                assertThat(orders.exists(id)).isTrue();
              }
              assertThat(reads(context)).isEqualTo(1);
              ExecutionRecord read = context.getBean(ExecutionHistory.class).recent().get(0);
              assertThat(read.role())
                  .as("the transaction's connection is the routed one")
                  .isEqualTo(NodeRole.REPLICA);

              assertThat(orders.exists(id)).as("from the cache").isTrue();
              assertThat(reads(context)).isEqualTo(1);

              signIn("ROLE_GUEST");
              assertThatThrownBy(() -> orders.exists(2))
                  .isInstanceOf(AuthorizationDeniedException.class);
              assertThat(reads(context)).isEqualTo(1);
            });
  }

  @Test
  void anAdviceOrderAheadOfTheOthersReadsBeforeTheyDecide() {
    runner()
        .withPropertyValues("tidemark.advice-order=" + Integer.MIN_VALUE)
        .run(
            context -> {
              Orders orders = context.getBean(Orders.class);
              signIn("ROLE_CLERK");
              assertThat(orders.exists(3)).isFalse();
              assertThat(orders.exists(3)).as("from the cache").isFalse();
              assertThat(reads(context)).isEqualTo(2);

              signIn("ROLE_GUEST");
              assertThatThrownBy(() -> orders.exists(4))
                  .isInstanceOf(AuthorizationDeniedException.class);
              assertThat(reads(context)).isEqualTo(3);
            });
  }

  private static void signIn(String role) {
    SecurityContextHolder.getContext()
        .setAuthentication(new TestingAuthenticationToken("clerk", "", role));
  }

  private static int reads(AssertableApplicationContext context) {
    return context.getBean(Reads.class).started.get();
  }
}

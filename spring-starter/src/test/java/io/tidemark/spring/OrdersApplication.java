package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.autoconfigure.TidemarkStartupException;
import io.tidemark.topology.ExecutionHistory;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * An unchanged Boot application on one source and one replica, for the tests of each database: an
 * {@code orders (id, customer)} table the database generates ids for, written in
 * {@code @Transactional} methods and read in {@code @ReadYourWrites} and read-only ones.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(OrdersApplication.Orders.class)
public class OrdersApplication {

  /**
   * Starts it as {@code user} (whose password is its name) on {@code sourceUrl}, with the replica
   * at {@code replicaUrl} and {@code settings} ({@code name=value}) over the tests' defaults.
   */
  public static ConfigurableApplicationContext run(
      String sourceUrl, String replicaUrl, String user, String... settings) {
    Map<String, Object> properties = new TreeMap<>();
    properties.put("spring.datasource.url", sourceUrl);
    properties.put("spring.datasource.username", user);
    properties.put("spring.datasource.password", user);
    properties.put("spring.datasource.hikari.maximum-pool-size", "4");
    properties.put("tidemark.cluster", "shop");
    properties.put("tidemark.token.secret", "a-secret-these-tests-share-0123456789");
    properties.put("tidemark.replicas[0].name", "replica-1");
    properties.put("tidemark.replicas[0].url", replicaUrl);
    properties.put("tidemark.topology.refresh-interval", "200ms");
    properties.put("tidemark.read.timeout", "5s");
    return new SpringApplicationBuilder(OrdersApplication.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .properties(settings)
        .run();
  }

  /** The latest read of {@code app}'s read path. */
  public static ExecutionRecord lastRead(ConfigurableApplicationContext app) {
    return app.getBean(ExecutionHistory.class).recent().get(0);
  }

  /** Checks {@code read} ran on {@code role} for {@code reason}. */
  public static void assertRead(ExecutionRecord read, NodeRole role, Reason reason) {
    assertThat(read.role()).as(read.toString()).isEqualTo(role);
    assertThat(read.reason()).as(read.toString()).isEqualTo(reason);
  }

  /**
   * Checks the start {@code start} makes fails with Tidemark's exception, and Boot's report says
   * Tidemark's user lacks privileges, telling each of {@code told}.
   */
  public static void failsLackingPrivileges(
      ThrowingCallable start, CharSequence output, String... told) {
    assertThatThrownBy(start).hasRootCauseInstanceOf(TidemarkStartupException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Tidemark's database user lacks privileges")
        .contains(told);
  }

  /** Closes the application and the topology a test class started, those that were. */
  public static void close(@Nullable AutoCloseable... started) throws Exception {
    for (AutoCloseable closeable : started) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  /** What the tests use of a started application: its service and the history of its reads. */
  public record Beans(Orders orders, ExecutionHistory history) {

    public static Beans of(ConfigurableApplicationContext app) {
      return new Beans(app.getBean(Orders.class), app.getBean(ExecutionHistory.class));
    }

    /** The latest read of the read path. */
    public ExecutionRecord lastRead() {
      return history.recent().get(0);
    }
  }

  /** A replica held back from applying what it receives, until closed. */
  @FunctionalInterface
  public interface Paused extends AutoCloseable {
    /** Resumes applying. */
    @Override
    void close();
  }

  /** The application's service. */
  @Service
  public static class Orders {
    private final JdbcClient jdbc;

    Orders(JdbcClient jdbc) {
      this.jdbc = jdbc;
    }

    @Transactional
    public long create(String customer) {
      return jdbc.sql("INSERT INTO orders (customer) VALUES (?) RETURNING id")
          .param(customer)
          .query(Long.class)
          .single();
    }

    /** Runs {@code sql}, which answers one text, in a read-only transaction. */
    @Transactional(readOnly = true)
    public String text(String sql) {
      return jdbc.sql(sql).query(String.class).single();
    }

    @ReadYourWrites
    @Transactional(isolation = Isolation.SERIALIZABLE, readOnly = true)
    public String customerSerializable(long id) {
      return customer(jdbc, "", id);
    }

    /** The customer, read in a read-only transaction, the query's text after {@code hint}. */
    @Transactional(readOnly = true)
    public String customerReadOnly(long id, String hint) {
      return customer(jdbc, hint, id);
    }

    @ReadYourWrites
    public String customer(long id) {
      return customer(jdbc, "", id);
    }

    /** The customer, or {@code null} when there is no such order. */
    @ReadYourWrites
    public String customerOrNull(long id) {
      return jdbc.sql("SELECT customer FROM orders WHERE id = ?")
          .param(id)
          .query(String.class)
          .optional()
          .orElse(null);
    }

    private static String customer(JdbcClient jdbc, String hint, long id) {
      return jdbc.sql(hint + "SELECT customer FROM orders WHERE id = ?")
          .param(id)
          .query(String.class)
          .single();
    }
  }
}

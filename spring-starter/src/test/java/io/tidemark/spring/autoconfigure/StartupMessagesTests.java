package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.spring.ReadYourWrites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A whole Boot application, every auto-configuration on the class path, in each shape Tidemark
 * cannot protect as is: it stops with Boot's failure report saying what to set, or starts with one
 * line saying Tidemark is off. The nodes do not answer; no server is needed.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupMessagesTests {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  /** The two DataSources of {@link ProtectionAtStartTests}, as a Spring Boot application. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class TwoDataSources extends ProtectionAtStartTests.TwoDataSources {}

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class H2Orders {
    @Bean
    Orders orders(JdbcTemplate jdbc) {
      return new Orders(jdbc);
    }
  }

  static class Orders {
    private final JdbcTemplate jdbc;

    Orders(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @ReadYourWrites
    public int count() {
      jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id INT)");
      jdbc.update("INSERT INTO orders VALUES (1)");
      return jdbc.queryForObject("SELECT COUNT(*) FROM orders", Integer.class);
    }
  }

  @Test
  void twoDataSourcesWithoutAPrimaryFailToStartNamingTheSetting(CapturedOutput output) {
    failsToStart(
        TwoDataSources.class,
        WebApplicationType.NONE,
        output,
        "the application has 2 DataSource beans (orders, reports)",
        "Set tidemark.datasource to the bean");
  }

  @Test
  void aWebFluxServerWithoutAutomaticContextPropagationFailsToStartNamingTheSetting(
      CapturedOutput output) {
    failsToStart(
        App.class,
        WebApplicationType.REACTIVE,
        output,
        "reactive web application without Reactor's automatic context propagation",
        "spring.reactor.context-propagation=auto");
  }

  @Test
  void anH2TestDatabaseStartsWithTidemarkOffInOneLine(CapturedOutput output) {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(H2Orders.class)
            .web(WebApplicationType.SERVLET)
            .properties(UnreachableNodes.PROPERTIES)
            .properties("spring.datasource.url=jdbc:h2:mem:orders", "server.port=0")
            .run()) {
      assertThat(context.getBean(Orders.class).count()).isEqualTo(1);
    }
    assertThat(output.getOut().lines().filter(line -> line.contains("Tidemark is off")))
        .singleElement()
        .asString()
        .contains("WARN")
        .contains("spring.datasource.url is a jdbc:h2 URL, not MySQL, MariaDB or PostgreSQL");
  }

  @Test
  void aWebApplicationSaysInOneLineWhereTokensTravelAndWhichReplicasItReads(CapturedOutput output) {
    start(App.class, WebApplicationType.SERVLET);
    start(App.class, WebApplicationType.NONE);

    assertThat(output.getOut().lines().filter(line -> line.contains("Tidemark is on")))
        .satisfiesExactly(
            web ->
                assertThat(web)
                    .contains("INFO")
                    .contains(
                        "Tidemark is on: writes go to source, reads under @ReadYourWrites to"
                            + " replica-1 (cluster default, policy FALLBACK_TO_SOURCE; source not"
                            + " reached yet, replica-1 not reached yet); tokens"
                            + " travel in the Consistency-Token header and the"
                            + " Consistency-Token-default cookie."),
            plain ->
                assertThat(plain)
                    .contains("; no HTTP token filter, since this is not a web application."));
  }

  @Test
  void theAutomaticModeSaysWhichReadsGoToReplicas(CapturedOutput output) {
    start(App.class, WebApplicationType.NONE, "tidemark.read.automatic=true");

    assertThat(output.getOut().lines().filter(line -> line.contains("Tidemark is on")))
        .singleElement()
        .asString()
        .contains(
            "reads in the automatic mode (read-only transactions, repository finders,"
                + " JdbcTemplate, MyBatis and jOOQ queries outside a transaction) and under"
                + " @ReadYourWrites to replica-1");
  }

  /**
   * Checks {@code app} fails to start with Tidemark's exception and Boot's report of a failed
   * start, which tells each of {@code told}.
   */
  private static void failsToStart(
      Class<?> app, WebApplicationType type, CapturedOutput output, String... told) {
    assertThatThrownBy(() -> start(app, type)).satisfies(StartupMessagesTests::isTidemarks);
    assertThat(output).contains("APPLICATION FAILED TO START").contains(told);
  }

  private static void isTidemarks(Throwable failure) {
    assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
        .isInstanceOf(TidemarkStartupException.class);
  }

  private static void start(Class<?> app, WebApplicationType type, String... settings) {
    new SpringApplicationBuilder(app)
        .web(type)
        .properties(UnreachableNodes.PROPERTIES)
        .properties(settings)
        .properties(
            "server.port=0",
            // JPA starts without asking the source that does not answer; Spring Data JDBC cannot.
            "spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false",
            "spring.jpa.database-platform=org.hibernate.dialect.MySQLDialect",
            "spring.autoconfigure.exclude="
                + "org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration")
        .run()
        .close();
  }
}

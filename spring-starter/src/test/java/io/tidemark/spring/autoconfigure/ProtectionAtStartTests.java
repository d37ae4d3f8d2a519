package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.spring.routing.RoutingDataSourceBeanPostProcessor;
import io.tidemark.spring.routing.TidemarkRoutingAutoConfiguration;
import io.tidemark.spring.web.TidemarkReactiveWebAutoConfiguration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Publisher;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.reactor.autoconfigure.ReactorAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import reactor.core.publisher.Hooks;

/**
 * Every application Tidemark cannot protect either starts protected, or stops with what to set, or
 * starts with one line saying Tidemark is off and why: never silently unprotected. No server is
 * needed, the nodes do not answer.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProtectionAtStartTests {

  private static final String OFF = "Tidemark is off: ";

  private static ApplicationContextRunner runner() {
    return UnreachableNodes.runner()
        .withConfiguration(AutoConfigurations.of(TidemarkOffAutoConfiguration.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class TwoDataSources {
    @Bean
    HikariDataSource orders() {
      return pool("jdbc:mysql://127.0.0.1:1/orders");
    }

    @Bean
    HikariDataSource reports() {
      return pool("jdbc:mysql://127.0.0.1:1/reports");
    }
  }

  /** The same two, orders the primary one. */
  @Configuration(proxyBeanMethods = false)
  static class TwoDataSourcesOnePrimary extends TwoDataSources {
    @Bean
    @Primary
    @Override
    HikariDataSource orders() {
      return super.orders();
    }
  }

  /** What a test that swaps the application's MySQL for an embedded database defines. */
  @Configuration(proxyBeanMethods = false)
  static class EmbeddedReplacement {
    @Bean
    @Primary
    DataSource embedded() {
      return new EmbeddedDatabaseBuilder()
          .setType(EmbeddedDatabaseType.H2)
          .generateUniqueName(true)
          .build();
    }
  }

  private static HikariDataSource pool(String url) {
    HikariDataSource pool = new HikariDataSource();
    pool.setJdbcUrl(url);
    pool.setUsername("app");
    pool.setPassword("secret");
    return pool;
  }

  @Test
  void twoDataSourcesWithoutAPrimaryStopTheStartNamingTheSetting() {
    runner()
        .withUserConfiguration(TwoDataSources.class)
        .run(
            context ->
                stoppedWith(
                    context,
                    "2 DataSource beans (orders, reports) and none is @Primary",
                    "tidemark.datasource",
                    "orders, reports"));
  }

  @Test
  void theNamedDataSourceIsTheOneRouted(CapturedOutput output) {
    runner()
        .withUserConfiguration(TwoDataSources.class)
        .withPropertyValues("tidemark.datasource=reports")
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(ConsistentReader.class);
              assertThat(routed(context.getBean("reports", DataSource.class))).isTrue();
              assertThat(context.getBean("orders")).isInstanceOf(HikariDataSource.class);
              assertThat(context.getBean(NodeRuntime.class).view().snapshot().nodes())
                  .extracting(node -> node.name())
                  .containsExactly("source", "replica-1");
            });
    assertThat(output)
        .contains(
            "Tidemark captures and routes DataSource reports only: reads and writes through"
                + " orders wait for no token and add none.");
  }

  @Test
  void thePrimaryDataSourceIsTheOneRoutedWithoutTheSetting() {
    runner()
        .withUserConfiguration(TwoDataSourcesOnePrimary.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(routed(context.getBean("orders", DataSource.class))).isTrue();
              assertThat(context.getBean("reports")).isInstanceOf(HikariDataSource.class);
              DataSource orders =
                  RoutingDataSourceBeanPostProcessor.applicationPool(
                      context.getBean("orders", DataSource.class));
              assertThat(((HikariDataSource) orders).getDataSourceProperties())
                  .containsEntry("trackSessionState", "true");
              assertThat(
                      context.getBean("reports", HikariDataSource.class).getDataSourceProperties())
                  .doesNotContainKey("trackSessionState");
            });
  }

  @Test
  void aSettingNamingNoDataSourceStopsTheStartWithTheChoices() {
    runner()
        .withUserConfiguration(TwoDataSources.class)
        .withPropertyValues("tidemark.datasource=invoices")
        .run(
            context ->
                stoppedWith(
                    context,
                    "tidemark.datasource=invoices names no DataSource bean",
                    "orders, reports"));
  }

  @Test
  void anH2UrlLeavesTidemarkOffWithOneLine(CapturedOutput output) {
    runner()
        .withPropertyValues("spring.datasource.url=jdbc:h2:mem:orders")
        .run(
            context -> {
              startedWithBootsPool(context);
              offBecause(
                  context,
                  "spring.datasource.url is a jdbc:h2 URL, not MySQL, MariaDB or PostgreSQL");
            });
    assertThat(linesWith(output, OFF)).isEqualTo(1);
    assertThat(output).contains("WARN").contains(OFF + "spring.datasource.url is a jdbc:h2 URL");
  }

  @Test
  void bootsEmbeddedDatabaseLeavesTidemarkOffWithOneLine(CapturedOutput output) {
    runner()
        .withPropertyValues("spring.datasource.url=")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(ConsistentReader.class);
              offBecause(
                  context,
                  "spring.datasource.url is not set, so the DataSource is an embedded H2 database");
            });
    assertThat(linesWith(output, OFF)).isEqualTo(1);
  }

  @Test
  void anEmbeddedDatabaseReplacingTheMySqlOneStopsTheStart() {
    runner()
        .withUserConfiguration(EmbeddedReplacement.class)
        .run(
            context ->
                stoppedWith(
                    context,
                    "DataSource embedded is an embedded database",
                    "tidemark.enabled=false"));
  }

  @Test
  void anotherDatabasesUrlStopsTheStartWhenTheDataSourceIsTheApplicationsOwn() {
    runner()
        .withBean("orders", HikariDataSource.class, () -> pool("jdbc:oracle:thin:@127.0.0.1:1/o"))
        .run(
            context ->
                assertThat(analysis(context).getDescription())
                    .contains("DataSource orders is not MySQL, MariaDB or PostgreSQL"));
  }

  @Test
  void turnedOffOnPurposeSaysSoInOneLine(CapturedOutput output) {
    runner()
        .withPropertyValues("tidemark.enabled=false")
        .run(context -> startedWithBootsPool(context));
    assertThat(linesWith(output, OFF + "tidemark.enabled=false")).isEqualTo(1);
    assertThat(output).doesNotContain("WARN");
  }

  @Test
  void noDataSourceSaysTidemarkIsOff(CapturedOutput output) {
    withoutDataSource()
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(NodeRuntime.class));
    assertThat(linesWith(output, OFF + "the application has no DataSource")).isEqualTo(1);
  }

  @Test
  void anR2dbcApplicationIsToldItsReadsAreNotProtected(CapturedOutput output) {
    withoutDataSource()
        .withBean(ConnectionFactory.class, R2dbcConnections::new)
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(NodeRuntime.class));
    assertThat(
            linesWith(
                output,
                OFF
                    + "the application has no DataSource; its R2DBC ConnectionFactory is not"
                    + " protected (Tidemark routes JDBC only)"))
        .isEqualTo(1);
  }

  /** Tidemark's auto-configurations where no embedded database is on the class path either. */
  private static ApplicationContextRunner withoutDataSource() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                TidemarkAutoConfiguration.class,
                TidemarkRoutingAutoConfiguration.class,
                TidemarkOffAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader("org.h2", "org.hsqldb", "org.apache.derby"));
  }

  /** What an R2DBC application has instead of a DataSource; never asked for a connection here. */
  private static final class R2dbcConnections implements ConnectionFactory {
    @Override
    public Publisher<? extends Connection> create() {
      throw new UnsupportedOperationException("not connected in this test");
    }

    @Override
    public ConnectionFactoryMetadata getMetadata() {
      return () -> "PostgreSQL";
    }
  }

  private static ReactiveWebApplicationContextRunner reactiveRunner() {
    return new ReactiveWebApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                ReactorAutoConfiguration.class,
                DataSourceAutoConfiguration.class,
                TidemarkAutoConfiguration.class,
                TidemarkRoutingAutoConfiguration.class,
                TidemarkOffAutoConfiguration.class,
                TidemarkReactiveWebAutoConfiguration.class))
        .withPropertyValues(UnreachableNodes.PROPERTIES);
  }

  /** Boot turns Reactor's propagation on for the JVM and never off: the other tests need it off. */
  @AfterEach
  void automaticContextPropagationOff() {
    Hooks.disableAutomaticContextPropagation();
  }

  @Test
  void aReactiveWebServerWithAutomaticContextPropagationStartsWithTheWebFilter() {
    reactiveRunner()
        .withPropertyValues("spring.reactor.context-propagation=auto")
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .hasSingleBean(ConsistentReader.class)
                    .hasBean("tidemarkConsistencyTokenFilter"));
  }

  @Test
  void aReactiveWebServerWithoutAutomaticContextPropagationStopsTheStartNamingTheSetting() {
    reactiveRunner()
        .run(
            context ->
                stoppedWith(
                    context,
                    "reactive web application without Reactor's automatic",
                    "spring.reactor.context-propagation=auto",
                    "tidemark.web.enabled=false"));
  }

  @Test
  void aReactiveWebServerThatOptedOutStartsAndSaysSo(CapturedOutput output) {
    reactiveRunner()
        .withPropertyValues("tidemark.web.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ConsistentReader.class));
    assertThat(linesWith(output, "tidemark.web.enabled=false")).isEqualTo(1);
  }

  @Test
  void wrappingDriversAreSeenThroughToConnectorJ() {
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:p6spy:mysql://db:3306/shop"))
        .isEqualTo("jdbc:mysql://db:3306/shop");
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:otel:mysql://db/shop"))
        .isEqualTo("jdbc:mysql://db/shop");
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:aws-wrapper:mysql://db/shop"))
        .isEqualTo("jdbc:mysql://db/shop");
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:mysql://db/shop"))
        .isEqualTo("jdbc:mysql://db/shop");
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:p6spy:h2:mem:shop")).isNull();
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:mariadb://db/shop")).isNull();
    assertThat(ApplicationDataSource.connectorJUrl("jdbc:aws-wrapper:postgresql://db/shop"))
        .isNull();
    assertThat(ApplicationDataSource.connectorJUrl(null)).isNull();
  }

  private static FailureAnalysis analysis(ApplicationContextAssertProvider<?> context) {
    assertThat(context).hasFailed();
    FailureAnalysis analysis = new TidemarkFailureAnalyzer().analyze(context.getStartupFailure());
    assertThat(analysis).as("a Tidemark failure analysis").isNotNull();
    return analysis;
  }

  /**
   * Checks the start failed with a Tidemark failure analysis whose description tells {@code
   * description} and whose action tells each of {@code action}.
   */
  private static void stoppedWith(
      ApplicationContextAssertProvider<?> context, String description, String... action) {
    FailureAnalysis analysis = analysis(context);
    assertThat(analysis.getDescription()).contains(description);
    assertThat(analysis.getAction()).contains(action);
  }

  /** Checks the application started unprotected, with Boot's own Hikari pool. */
  private static void startedWithBootsPool(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed().doesNotHaveBean(ConsistentReader.class);
    assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
  }

  /** Checks Tidemark is off for {@code reason}. */
  private static void offBecause(AssertableApplicationContext context, String reason) {
    assertThat(context.getBean(TidemarkOffAutoConfiguration.Off.class).reason()).isEqualTo(reason);
  }

  private static boolean routed(DataSource dataSource) {
    return RoutingDataSourceBeanPostProcessor.applicationPool(dataSource) != dataSource;
  }

  private static long linesWith(CapturedOutput output, String text) {
    return output.getOut().lines().filter(line -> line.contains(text)).count();
  }
}

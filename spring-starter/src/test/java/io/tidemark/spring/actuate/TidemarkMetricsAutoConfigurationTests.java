package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.ContextBeans.withoutOnTheClassPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.UnreachableNodes;
import io.tidemark.spring.routing.TidemarkRoutingAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The metrics auto-configuration with Tidemark's real beans, nodes unreachable. */
class TidemarkMetricsAutoConfigurationTests {

  private static final AutoConfigurations TIDEMARK =
      AutoConfigurations.of(
          DataSourceAutoConfiguration.class,
          TidemarkAutoConfiguration.class,
          TidemarkRoutingAutoConfiguration.class,
          TidemarkMetricsAutoConfiguration.class);

  private static final AutoConfigurations MICROMETER =
      AutoConfigurations.of(
          MetricsAutoConfiguration.class,
          CompositeMeterRegistryAutoConfiguration.class,
          SimpleMetricsExportAutoConfiguration.class,
          ObservationAutoConfiguration.class);

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(TIDEMARK)
          .withPropertyValues(UnreachableNodes.PROPERTIES);

  @Test
  void instrumentsReadsWhenTheApplicationHasMicrometer() {
    runner
        .withConfiguration(MICROMETER)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(ReadMetrics.class);
              assertThat(context).hasSingleBean(ReadObservation.class);
              assertThat(context).hasSingleBean(NodeStateMetrics.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(registry.find(NodeStateMetrics.LAG).gauges()).hasSize(2);
              assertThat(registry.get(NodeStateMetrics.AVAILABLE).tag("node", "replica-1"))
                  .satisfies(gauge -> assertThat(gauge.gauge().value()).isZero());
            });
  }

  @Test
  void theReplicaPoolsHaveHikarisMeters() {
    runner
        .withConfiguration(MICROMETER)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .find("hikaricp.connections.max")
                          .tag("pool", "tidemark-replica-1")
                          .gauge())
                  .isNotNull()
                  .satisfies(max -> assertThat(max.value()).isEqualTo(64));
            });
  }

  @Test
  void countsTheReadsOfTheRealReader() {
    runner
        .withConfiguration(MICROMETER)
        .run(
            context -> {
              ConsistentReader reader = context.getBean(ConsistentReader.class);
              try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
                assertThatThrownBy(() -> reader.read(c -> 1))
                    .isInstanceOf(ConsistentReadException.class);
              }
              ExecutionRecord failed =
                  context.getBean(io.tidemark.topology.ExecutionHistory.class).recent().get(0);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .get(ReadMetrics.REJECTIONS)
                          .tag("reason", failed.reason().name())
                          .counter()
                          .count())
                  .isEqualTo(1);
              assertThat(registry.find(ReadMetrics.REJECTIONS).counters()).hasSize(1);
            });
  }

  @Test
  void observesReadsOfAnnotatedMethods() {
    runner
        .withConfiguration(MICROMETER)
        .withUserConfiguration(CatalogConfiguration.class)
        .run(
            context -> {
              Catalog catalog = context.getBean(Catalog.class);
              assertThatThrownBy(catalog::find).isInstanceOf(ConsistentReadException.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              var observed =
                  registry
                      .get(DefaultReadObservationConvention.NAME)
                      .tag("method", "Catalog.find")
                      .timer();
              assertThat(observed.count()).isEqualTo(1);
              assertThat(observed.getId().getTag("outcome"))
                  .isNotEqualTo(DefaultReadObservationConvention.ERROR)
                  .isEqualTo(
                      context
                          .getBean(io.tidemark.topology.ExecutionHistory.class)
                          .recent()
                          .get(0)
                          .reason()
                          .name());
            });
  }

  @Test
  void staysOffWhenTidemarkIsDisabled() {
    runner
        .withConfiguration(MICROMETER)
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(ReadMetrics.class);
              assertThat(context).doesNotHaveBean(ReadObservation.class);
              assertThat(context).doesNotHaveBean(NodeStateMetrics.class);
            });
  }

  @Test
  void makesNothingWithoutRegistries() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(ConsistentReader.class);
          assertThat(context).doesNotHaveBean(ReadMetrics.class);
          assertThat(context).doesNotHaveBean(ReadObservation.class);
        });
  }

  @Test
  void observesWithoutMetersWhenOnlyObservationIsThere() {
    withoutOnTheClassPath(
        runner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class)),
        new FilteredClassLoader(MeterRegistry.class),
        ReadObservation.class,
        ReadMetrics.class,
        NodeStateMetrics.class);
  }

  @Test
  void backsOffWithoutMicrometerOnTheClasspath() {
    withoutOnTheClassPath(
        runner,
        new FilteredClassLoader(MeterRegistry.class, ObservationRegistry.class),
        ConsistentReader.class,
        ReadObservation.class);
  }

  @Test
  void userBeansReplaceTidemarksByName() {
    runner
        .withConfiguration(MICROMETER)
        .withUserConfiguration(QuietMetrics.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean("tidemarkReadMetrics")).isInstanceOf(String.class);
              assertThat(context).doesNotHaveBean(ReadMetrics.class);
              assertThat(context).hasSingleBean(ReadObservation.class);
            });
  }

  @Test
  void anApplicationsConventionBeanNamesAndTagsTheReads() {
    runner
        .withConfiguration(MICROMETER)
        .withUserConfiguration(CatalogConfiguration.class, TeamConvention.class)
        .run(
            context -> {
              Catalog catalog = context.getBean(Catalog.class);
              assertThatThrownBy(catalog::find).isInstanceOf(ConsistentReadException.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(registry.find(DefaultReadObservationConvention.NAME).timers()).isEmpty();
              assertThat(
                      registry
                          .get("shop.read")
                          .tag("method", "Catalog.find")
                          .tag("team", "orders")
                          .timer()
                          .count())
                  .isEqualTo(1);
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class TeamConvention {
    @Bean
    ReadObservationConvention teamConvention() {
      return new TeamReadConvention();
    }
  }

  /** A bean with one {@code @ReadYourWrites} method. */
  static class Catalog {
    @ReadYourWrites
    public int find() {
      return 1;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class CatalogConfiguration {
    @Bean
    Catalog catalog() {
      return new Catalog();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class QuietMetrics {
    @Bean
    String tidemarkReadMetrics() {
      return "none";
    }
  }
}

package io.tidemark.spring.actuate;

import static io.tidemark.spring.autoconfigure.ContextBeans.withoutOnTheClassPath;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.spring.autoconfigure.UnreachableNodes;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The actuator auto-configuration with Tidemark's real beans, nodes unreachable. */
class TidemarkActuatorAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      UnreachableNodes.runner()
          .withConfiguration(AutoConfigurations.of(TidemarkActuatorAutoConfiguration.class));

  @Test
  void contributesHealthFromTheRealTopology() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasBean("tidemarkHealthIndicator");
          var health = context.getBean(TidemarkHealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.DOWN);
          assertThat(health.getDetails().get("problems").toString())
              .contains("no writable source")
              .contains("replica-1 is unreachable");
        });
  }

  @Test
  void exposesTheEndpointOnlyWhenAsked() {
    runner.run(context -> assertThat(context).doesNotHaveBean(TidemarkEndpoint.class));
    runner
        .withPropertyValues("management.endpoints.web.exposure.include=tidemark")
        .run(
            context -> {
              assertThat(context).hasSingleBean(TidemarkEndpoint.class);
              assertThat(context.getBean(TidemarkEndpoint.class).report().nodes())
                  .extracting(TidemarkEndpoint.NodeReport::name)
                  .containsExactly("source", "replica-1");
            });
    runner
        .withPropertyValues(
            "management.endpoints.web.exposure.include=tidemark",
            "management.endpoint.tidemark.access=NONE")
        .run(context -> assertThat(context).doesNotHaveBean(TidemarkEndpoint.class));
  }

  @Test
  void healthCanBeSwitchedOff() {
    runner
        .withPropertyValues("management.health.tidemark.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(TidemarkHealthIndicator.class));
  }

  @Test
  void staysOffWhenTidemarkIsDisabled() {
    runner
        .withPropertyValues(
            "tidemark.enabled=false", "management.endpoints.web.exposure.include=tidemark")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(TidemarkHealthIndicator.class);
              assertThat(context).doesNotHaveBean(TidemarkEndpoint.class);
            });
  }

  @Test
  void aUserHealthIndicatorReplacesTidemarks() {
    runner
        .withUserConfiguration(OwnHealth.class)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(TidemarkHealthIndicator.class);
              assertThat(context.getBean("tidemarkHealthIndicator", HealthIndicator.class).health())
                  .extracting(h -> h.getStatus())
                  .isEqualTo(Status.OUT_OF_SERVICE);
            });
  }

  @Test
  void backsOffWithoutActuatorOrHealthOnTheClasspath() {
    withoutOnTheClassPath(
        runner.withPropertyValues("management.endpoints.web.exposure.include=tidemark"),
        new FilteredClassLoader(Endpoint.class),
        TidemarkHealthIndicator.class,
        TidemarkEndpoint.class);
    withoutOnTheClassPath(
        runner,
        new FilteredClassLoader(HealthIndicator.class),
        ConsistentReader.class,
        TidemarkHealthIndicator.class);
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnHealth {
    @Bean
    HealthIndicator tidemarkHealthIndicator() {
      return () -> org.springframework.boot.health.contributor.Health.outOfService().build();
    }
  }
}

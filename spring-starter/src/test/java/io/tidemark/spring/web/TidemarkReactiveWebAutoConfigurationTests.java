package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestConfigurations;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.server.WebFilter;

class TidemarkReactiveWebAutoConfigurationTests {

  private final ReactiveWebApplicationContextRunner runner =
      TestConfigurations.withCodec(
          new ReactiveWebApplicationContextRunner(),
          TidemarkWebAutoConfiguration.class,
          TidemarkReactiveWebAutoConfiguration.class);

  @Test
  void registersTheWebFilterInTheConfiguredOrder() {
    runner
        .withPropertyValues("tidemark.web.filter-order=-42")
        .run(
            context -> {
              assertThat(context.getBean("tidemarkConsistencyTokenFilter"))
                  .isInstanceOf(ConsistencyTokenWebFilter.class);
              assertThat(context.getBean(ConsistencyTokenWebFilter.class).getOrder())
                  .isEqualTo(-42);
              assertThat(context).doesNotHaveBean(ConsistencyExceptionHandler.class);
            });
  }

  @Test
  void backsOffWhenTheWebSideIsTurnedOff() {
    runner
        .withPropertyValues("tidemark.web.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(WebFilter.class));
  }

  @Test
  void usesTheApplicationsFilterOfTheSameName() {
    WebFilter own = (exchange, chain) -> chain.filter(exchange);
    runner
        .withBean("tidemarkConsistencyTokenFilter", WebFilter.class, () -> own)
        .run(
            context -> {
              assertThat(context.getBean("tidemarkConsistencyTokenFilter")).isSameAs(own);
              assertThat(context).doesNotHaveBean(ConsistencyTokenWebFilter.class);
            });
  }

  @Test
  void aServletApplicationGetsNoWebFilter() {
    TestConfigurations.withCodec(
            new WebApplicationContextRunner(), TidemarkReactiveWebAutoConfiguration.class)
        .run(context -> assertThat(context).doesNotHaveBean(WebFilter.class));
  }
}

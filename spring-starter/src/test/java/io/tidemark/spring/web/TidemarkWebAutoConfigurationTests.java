package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestConfigurations;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;

class TidemarkWebAutoConfigurationTests {

  private final WebApplicationContextRunner withCodec =
      TestConfigurations.withCodec(
          new WebApplicationContextRunner(), TidemarkWebAutoConfiguration.class);

  @Test
  void registersTheFilterForRequestAndAsyncDispatchesInTheConfiguredOrder() {
    withCodec
        .withPropertyValues("tidemark.web.filter-order=-42")
        .run(
            context -> {
              FilterRegistrationBean<?> registration =
                  context.getBean("tidemarkConsistencyTokenFilter", FilterRegistrationBean.class);
              assertThat(registration.getFilter()).isInstanceOf(ConsistencyTokenFilter.class);
              assertThat(registration.getOrder()).isEqualTo(-42);
              assertThat(registration.determineDispatcherTypes())
                  .isEqualTo(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
              assertThat(registration.isAsyncSupported()).isTrue();
              assertThat(context.getBean(ConsistencyExceptionHandler.class).getOrder())
                  .isEqualTo(Ordered.LOWEST_PRECEDENCE);
            });
  }

  @Test
  void backsOffWhenTidemarkIsDisabled() {
    withCodec
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context ->
                assertThat(context)
                    .doesNotHaveBean("tidemarkConsistencyTokenFilter")
                    .doesNotHaveBean(ConsistencyExceptionHandler.class));
  }

  @Test
  void backsOffWithoutTheCoreAutoConfigurationsCodec() {
    TestConfigurations.withSecret(
            new WebApplicationContextRunner(), TidemarkWebAutoConfiguration.class)
        .withUserConfiguration(TestConfigurations.PropertiesOnly.class)
        .run(context -> assertThat(context).doesNotHaveBean("tidemarkConsistencyTokenFilter"));
  }

  @Test
  void backsOffOutsideAServletApplication() {
    TestConfigurations.withCodec(new ApplicationContextRunner(), TidemarkWebAutoConfiguration.class)
        .run(context -> assertThat(context).doesNotHaveBean("tidemarkConsistencyTokenFilter"));
  }

  @Test
  void leavesTheExceptionHandlerOutWithoutSpringMvc() {
    withCodec
        .withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
        .run(
            context ->
                assertThat(context)
                    .hasBean("tidemarkConsistencyTokenFilter")
                    .doesNotHaveBean(ConsistencyExceptionHandler.class));
  }

  @Test
  void usesTheApplicationsFilterAndExceptionHandlerOfTheSameNames() {
    withCodec
        .withUserConfiguration(Replacements.class)
        .run(
            context -> {
              assertThat(context.getBean("tidemarkConsistencyTokenFilter"))
                  .isSameAs(context.getBean(Replacements.class).filter);
              assertThat(context.getBeansOfType(ConsistencyTokenFilter.class)).isEmpty();
              assertThat(context.getBeansOfType(ConsistencyExceptionHandler.class)).isEmpty();
              assertThat(context.getBean("tidemarkExceptionHandler"))
                  .isSameAs(context.getBean(Replacements.class).handler);
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class Replacements {
    final FilterRegistrationBean<?> filter = new FilterRegistrationBean<>();
    final Object handler = new Object();

    @Bean
    FilterRegistrationBean<?> tidemarkConsistencyTokenFilter() {
      return filter;
    }

    @Bean
    Object tidemarkExceptionHandler() {
      return handler;
    }
  }
}

package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TestTokens;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;

class TidemarkWebAutoConfigurationTests {

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withPropertyValues("tidemark.token.secret=" + TestTokens.SECRET)
          .withConfiguration(AutoConfigurations.of(TidemarkWebAutoConfiguration.class));

  @Test
  void registersTheFilterForRequestAndAsyncDispatchesInTheConfiguredOrder() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
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
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean("tidemarkConsistencyTokenFilter");
              assertThat(context).doesNotHaveBean(ConsistencyExceptionHandler.class);
            });
  }

  @Test
  void backsOffWithoutTheCoreAutoConfigurationsCodec() {
    runner
        .withUserConfiguration(TestConfigurations.PropertiesOnly.class)
        .run(context -> assertThat(context).doesNotHaveBean("tidemarkConsistencyTokenFilter"));
  }

  @Test
  void backsOffOutsideAServletApplication() {
    new ApplicationContextRunner()
        .withPropertyValues("tidemark.token.secret=" + TestTokens.SECRET)
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withConfiguration(AutoConfigurations.of(TidemarkWebAutoConfiguration.class))
        .run(context -> assertThat(context).doesNotHaveBean("tidemarkConsistencyTokenFilter"));
  }

  @Test
  void leavesTheExceptionHandlerOutWithoutSpringMvc() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
        .run(
            context -> {
              assertThat(context).hasBean("tidemarkConsistencyTokenFilter");
              assertThat(context).doesNotHaveBean(ConsistencyExceptionHandler.class);
            });
  }

  @Test
  void usesTheApplicationsFilterAndExceptionHandlerOfTheSameNames() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class, Replacements.class)
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

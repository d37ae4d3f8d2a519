package io.tidemark.spring.web;

import io.tidemark.Ticker;
import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.spring.autoconfigure.TokenCarriers;
import io.tidemark.spring.autoconfigure.TokenExchangeConfiguration;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The consistency header on the requests a servlet application serves: a filter that verifies the
 * request's token, opens the request's consistency context and deadline, and writes the merged
 * token into the response before it is committed; and, with Spring MVC, an exception handler that
 * answers a refused read with 503 and a rejected token with 400 (see {@link ConsistencyProblems}),
 * after the application's own exception handlers.
 *
 * <p>Replace the filter with a bean named {@code tidemarkConsistencyTokenFilter}, the exception
 * handler with one named {@code tidemarkExceptionHandler}.
 */
@AutoConfiguration(after = TidemarkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "tidemark.web.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({Filter.class, OncePerRequestFilter.class})
@ConditionalOnBean(TokenCodec.class)
@Import({TokenExchangeConfiguration.class, ConsistencyProblemsConfiguration.class})
@EnableConfigurationProperties({TidemarkProperties.class, TidemarkWebProperties.class})
public final class TidemarkWebAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "tidemarkConsistencyTokenFilter")
  FilterRegistrationBean<ConsistencyTokenFilter> tidemarkConsistencyTokenFilter(
      TokenExchange tidemarkTokenExchange,
      TokenCodec tidemarkTokenCodec,
      ConsistencyProblems tidemarkConsistencyProblems,
      TidemarkWebProperties web,
      ObjectProvider<NodeRuntime> nodes) {
    ConsistencyTokenFilter filter =
        new ConsistencyTokenFilter(
            requestTokens(tidemarkTokenExchange, tidemarkTokenCodec, web, nodes),
            tidemarkConsistencyProblems);
    FilterRegistrationBean<ConsistencyTokenFilter> registration =
        new FilterRegistrationBean<>(filter);
    registration.setName("tidemarkConsistencyTokenFilter");
    registration.setOrder(web.getFilterOrder());
    // ERROR is left out on purpose: see ConsistencyTokenFilter.
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    registration.setAsyncSupported(true);
    return registration;
  }

  /** Where the tokens travel, for the start-up line. */
  @Bean
  TokenCarriers tidemarkTokenCarriers(TidemarkWebProperties web, TidemarkProperties properties) {
    return () -> web.carriers(properties.getCluster());
  }

  /**
   * The header and cookie rules of both token filters: cookies live as long as the tokens they
   * carry, and the read header names nodes as the topology does ({@code TopologyView.nameOf}; by
   * UUID where no node has it, or the application runs no topology of Tidemark's).
   */
  static RequestTokens requestTokens(
      TokenExchange exchange,
      TokenCodec codec,
      TidemarkWebProperties web,
      ObjectProvider<NodeRuntime> nodes) {
    return new RequestTokens(
        exchange,
        web,
        codec.config().timeToLive(),
        Ticker.systemTicker(),
        uuid -> {
          NodeRuntime runtime = nodes.getIfAvailable();
          return runtime == null ? uuid : runtime.view().nameOf(uuid).orElse(uuid);
        });
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(DispatcherServlet.class)
  static class ExceptionHandlerConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkExceptionHandler")
    ConsistencyExceptionHandler tidemarkExceptionHandler(
        ConsistencyProblems tidemarkConsistencyProblems,
        ObjectProvider<ResponseEntityExceptionHandler> applicationHandler) {
      return new ConsistencyExceptionHandler(tidemarkConsistencyProblems, applicationHandler);
    }
  }
}

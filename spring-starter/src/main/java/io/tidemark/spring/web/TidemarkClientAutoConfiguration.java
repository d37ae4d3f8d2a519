package io.tidemark.spring.web;

import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.spring.autoconfigure.TokenExchangeConfiguration;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Keeps read-your-writes across service calls and threads.
 *
 * <p>Clients built from Spring Boot's {@code RestClient.Builder}, {@code RestTemplateBuilder} and
 * {@code WebClient.Builder} send the current context's token (with the request's tokens of other
 * clusters) in the consistency header and merge the token the called service answers with, so that
 * in a chain A → B → A every service reads what the others wrote. An answer whose token of this
 * cluster does not verify is logged and marks the context dirty: the rest of the request reads from
 * the source rather than possibly missing the called service's writes.
 *
 * <p>A {@code TaskDecorator} carries the context, the request's deadline and forwarded tokens into
 * tasks run by the executors and schedulers Spring Boot configures ({@code @Async}, Spring MVC's
 * async requests, {@code ThreadPoolTaskExecutor}s built by its builders), together with the
 * application's own decorators. An application that declares Spring's {@code
 * ContextPropagatingTaskDecorator} as a bean of that type gets no such decorator: that one carries
 * the context already, through core's {@code ConsistencyContextAccessor}, and a task is bound to
 * its context once, by one mechanism.
 *
 * <p>Kafka, RabbitMQ and JMS messages carry the token through the messaging auto-configuration;
 * work queued elsewhere carries it in a message header through the {@link TokenExchange} bean:
 * {@code headerFor(context)} on the producer, {@code receive(value, deadline)} on the consumer.
 *
 * <p>Replace a part with a bean of the same name: {@code tidemarkTaskDecorator}, {@code
 * tidemarkRestClientCustomizer}, {@code tidemarkRestTemplateCustomizer}, {@code
 * tidemarkWebClientCustomizer}.
 */
@AutoConfiguration(after = TidemarkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBean(TokenCodec.class)
@Import({TokenExchangeConfiguration.class, TaskDecoratorConfiguration.class})
@EnableConfigurationProperties({TidemarkProperties.class, TidemarkWebProperties.class})
public final class TidemarkClientAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({RestClient.class, RestClientCustomizer.class})
  static class RestClientConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkRestClientCustomizer")
    RestClientCustomizer tidemarkRestClientCustomizer(TokenExchange tidemarkTokenExchange) {
      TokenClientInterceptor interceptor = new TokenClientInterceptor(tidemarkTokenExchange);
      return builder -> builder.requestInterceptor(interceptor);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({RestTemplate.class, RestTemplateCustomizer.class})
  static class RestTemplateConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkRestTemplateCustomizer")
    RestTemplateCustomizer tidemarkRestTemplateCustomizer(TokenExchange tidemarkTokenExchange) {
      TokenClientInterceptor interceptor = new TokenClientInterceptor(tidemarkTokenExchange);
      return restTemplate -> restTemplate.getInterceptors().add(interceptor);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({WebClient.class, WebClientCustomizer.class})
  static class WebClientConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkWebClientCustomizer")
    WebClientCustomizer tidemarkWebClientCustomizer(TokenExchange tidemarkTokenExchange) {
      TokenExchangeFilter filter = new TokenExchangeFilter(tidemarkTokenExchange);
      return builder -> builder.filter(filter);
    }
  }
}

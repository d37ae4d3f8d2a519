package io.tidemark.spring.messaging;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.TidemarkStartupException;
import io.tidemark.spring.autoconfigure.TokenExchangeConfiguration;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Tokens on messages: what the application's Kafka, RabbitMQ and JMS templates send carries the
 * sending thread's token, and each listener runs in the context of its message's token. Each
 * technology is on when its Spring library is on the classpath, unless {@code
 * tidemark.messaging.<technology>.enabled} is {@code false}.
 */
@AutoConfiguration(after = TidemarkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBean(TokenCodec.class)
@EnableConfigurationProperties(TidemarkMessagingProperties.class)
@Import({
  TokenExchangeConfiguration.class,
  KafkaTokensConfiguration.class,
  RabbitTokensConfiguration.class,
  JmsTokensConfiguration.class
})
public final class TidemarkMessagingAutoConfiguration {

  TidemarkMessagingAutoConfiguration() {}

  @Bean
  MessageTokens tidemarkMessageTokens(
      TokenExchange tidemarkTokenExchange,
      TidemarkMessagingProperties messaging,
      ObjectProvider<MessageTokens.Rejections> rejections) {
    if (messaging.getHeader().isBlank()) {
      throw new TidemarkStartupException(
          "tidemark.messaging.header is blank: Kafka records and RabbitMQ messages would carry"
              + " no token.",
          "Set tidemark.messaging.header to a header name such as Consistency-Token (the"
              + " default), or set tidemark.messaging.kafka.enabled=false and"
              + " tidemark.messaging.rabbit.enabled=false.");
    }
    return new MessageTokens(
        tidemarkTokenExchange,
        messaging,
        rejections.getIfAvailable(() -> MessageTokens.Rejections.NONE));
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
  static class RejectionMetrics {

    /** {@code tidemark.messaging.rejected}: messages whose token did not verify. */
    @Bean
    MessageTokens.Rejections tidemarkMessageRejections(ObjectProvider<MeterRegistry> registry) {
      return (technology, reason) -> {
        MeterRegistry meters = registry.getIfAvailable();
        if (meters != null) {
          meters
              .counter(
                  "tidemark.messaging.rejected",
                  "technology",
                  technology,
                  "reason",
                  reason.name().toLowerCase(Locale.ROOT))
              .increment();
        }
      };
    }
  }
}

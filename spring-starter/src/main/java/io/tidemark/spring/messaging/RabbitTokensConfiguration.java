package io.tidemark.spring.messaging;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tokens on the messages of every RabbitMQ template and listener container factory bean. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.amqp.rabbit.core.RabbitTemplate")
@ConditionalOnBooleanProperty(name = "tidemark.messaging.rabbit.enabled", matchIfMissing = true)
class RabbitTokensConfiguration {

  @Bean
  static RabbitTokensPostProcessor tidemarkRabbitTokens(ObjectProvider<MessageTokens> tokens) {
    return new RabbitTokensPostProcessor(tokens::getObject);
  }
}

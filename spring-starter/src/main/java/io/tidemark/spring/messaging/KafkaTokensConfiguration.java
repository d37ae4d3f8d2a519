package io.tidemark.spring.messaging;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tokens on the records of every Kafka producer factory and listener container factory bean. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.kafka.core.DefaultKafkaProducerFactory")
@ConditionalOnBooleanProperty(name = "tidemark.messaging.kafka.enabled", matchIfMissing = true)
class KafkaTokensConfiguration {

  @Bean
  static KafkaTokensPostProcessor tidemarkKafkaTokens(ObjectProvider<MessageTokens> tokens) {
    return new KafkaTokensPostProcessor(tokens::getObject);
  }
}

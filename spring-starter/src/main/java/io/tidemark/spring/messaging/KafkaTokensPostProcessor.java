package io.tidemark.spring.messaging;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.CompositeBatchInterceptor;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.util.StringUtils;

/**
 * Adds the token to Kafka: {@link TokenProducerInterceptor} to the producers of each {@link
 * DefaultKafkaProducerFactory} bean, and {@link KafkaListenerTokens} ahead of the interceptors of
 * each listener container factory bean, so that the user's own interceptors see the context when
 * they intercept.
 */
@SuppressWarnings("rawtypes")
final class KafkaTokensPostProcessor
    extends BrokerTokensPostProcessor<
        DefaultKafkaProducerFactory, AbstractKafkaListenerContainerFactory> {

  KafkaTokensPostProcessor(Supplier<MessageTokens> tokens) {
    super(tokens, DefaultKafkaProducerFactory.class, AbstractKafkaListenerContainerFactory.class);
  }

  @Override
  @SuppressWarnings("unchecked")
  void addToSender(DefaultKafkaProducerFactory producers) {
    producers.updateConfigs(
        Map.of(
            ProducerConfig.INTERCEPTOR_CLASSES_CONFIG,
            withTokens(producers.getConfigurationProperties()),
            TokenProducerInterceptor.TOKENS,
            tokens));
  }

  @Override
  @SuppressWarnings("unchecked")
  void addToListeners(AbstractKafkaListenerContainerFactory listeners) {
    KafkaListenerTokens ours = new KafkaListenerTokens(tokens);
    RecordInterceptor records = listeners.getRecordInterceptor();
    listeners.setRecordInterceptor(
        records == null ? ours : new CompositeRecordInterceptor<>(ours, records));
    BatchInterceptor batches = listeners.getBatchInterceptor();
    listeners.setBatchInterceptor(
        batches == null ? ours : new CompositeBatchInterceptor<>(ours, batches));
  }

  /** The factory's interceptor classes, given as a class, a name, a list or a comma list. */
  private static List<Object> withTokens(Map<String, Object> configs) {
    List<Object> classes = new ArrayList<>();
    Object configured = configs.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
    if (configured instanceof Collection<?> several) {
      classes.addAll(several);
    } else if (configured instanceof String names) {
      classes.addAll(StringUtils.commaDelimitedListToSet(names.replace(" ", "")));
    } else if (configured != null) {
      classes.add(configured);
    }
    if (!classes.contains(TokenProducerInterceptor.class)
        && !classes.contains(TokenProducerInterceptor.class.getName())) {
      classes.add(TokenProducerInterceptor.class);
    }
    return classes;
  }
}

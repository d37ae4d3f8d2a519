package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.TokenExchange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.listener.RecordInterceptor;

class KafkaTokensPostProcessorTests {

  private static final String WRITTEN = TestTokens.A + ":1-4";

  private final MessageTokens tokens =
      new MessageTokens(
          new TokenExchange(
              TestTokens.codec(),
              "default",
              "Consistency-Token",
              Duration.ofMillis(500),
              timeout -> GtidSet.parse(WRITTEN)),
          new TidemarkMessagingProperties(),
          MessageTokens.Rejections.NONE);
  private final KafkaTokensPostProcessor processor = new KafkaTokensPostProcessor(() -> tokens);

  @Test
  void producersKeepTheirInterceptorsAndGetTheTokensOne() {
    DefaultKafkaProducerFactory<String, String> producers =
        new DefaultKafkaProducerFactory<>(
            Map.of(
                ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, "com.example.Audit, com.example.Trace"));

    processor.postProcessAfterInitialization(producers, "producers");

    Map<String, Object> configs = producers.getConfigurationProperties();
    assertThat(configs.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG))
        .isEqualTo(
            List.of("com.example.Audit", "com.example.Trace", TokenProducerInterceptor.class));
    assertThat(configs.get(TokenProducerInterceptor.TOKENS)).isInstanceOf(Supplier.class);
  }

  @Test
  void aRecordSentInAUnitOfWorkCarriesItsTokenInPlaceOfAnyOther() {
    TokenProducerInterceptor interceptor = new TokenProducerInterceptor();
    interceptor.configure(
        Map.of(TokenProducerInterceptor.TOKENS, (Supplier<MessageTokens>) () -> tokens));
    ProducerRecord<Object, Object> record = new ProducerRecord<>("orders", "1");
    record.headers().add("Consistency-Token", "stale".getBytes(StandardCharsets.UTF_8));

    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      interceptor.onSend(record);
    }

    List<Header> headers = new ArrayList<>();
    record.headers().headers("Consistency-Token").forEach(headers::add);
    assertThat(headers).hasSize(1);
    assertThat(TestTokens.verified(new String(headers.get(0).value(), StandardCharsets.UTF_8)))
        .isEqualTo(GtidSet.parse(WRITTEN));
  }

  @Test
  void aRecordWithoutATokenRunsInAnEmptyContext() {
    KafkaListenerTokens listener = new KafkaListenerTokens(() -> tokens);
    ConsumerRecord<Object, Object> record = new ConsumerRecord<>("orders", 0, 0, null, "1");

    listener.intercept(record, null);
    try {
      assertThat(ConsistencyContext.current().gtids().isEmpty()).isTrue();
      assertThat(ConsistencyContext.current().isDirty()).isFalse();
    } finally {
      listener.afterRecord(record, null);
    }
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void aFailedBatchKeepsItsContextForTheErrorHandlersRetriesUntilTheThreadIsCleared() {
    // In a transactional container the batch is intercepted once, before its transaction; the
    // error handler then replays the listener in memory without intercepting again.
    KafkaListenerTokens listener = new KafkaListenerTokens(() -> tokens);
    ConsumerRecord<Object, Object> record = writtenRecord();
    ConsumerRecords<Object, Object> batch =
        new ConsumerRecords<>(Map.of(new TopicPartition("orders", 0), List.of(record)), Map.of());

    listener.intercept(batch, null);
    listener.failure(batch, new IllegalStateException("first attempt"), null);

    assertThat(ConsistencyContext.currentOrNull())
        .as("bound for the retries")
        .isNotNull()
        .extracting(ConsistencyContext::gtids)
        .isEqualTo(GtidSet.parse(WRITTEN));
    listener.clearThreadState(null);
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void theUsersRecordInterceptorRunsInTheRecordsContextWhichEndsAfterTheRecord() {
    ConcurrentKafkaListenerContainerFactory<Object, Object> listeners =
        new ConcurrentKafkaListenerContainerFactory<>();
    List<GtidSet> seen = new ArrayList<>();
    listeners.setRecordInterceptor(
        (record, consumer) -> {
          seen.add(ConsistencyContext.current().gtids());
          return record;
        });

    processor.postProcessAfterInitialization(listeners, "listeners");
    RecordInterceptor<Object, Object> interceptors = listeners.getRecordInterceptor();
    ConsumerRecord<Object, Object> record = writtenRecord();
    Consumer<Object, Object> consumer = null;
    interceptors.intercept(record, consumer);
    assertThat(ConsistencyContext.currentOrNull()).isNotNull();
    interceptors.afterRecord(record, consumer);

    assertThat(seen).containsExactly(GtidSet.parse(WRITTEN));
    assertThat(ConsistencyContext.currentOrNull()).isNull();
    assertThat(listeners.getBatchInterceptor()).isInstanceOf(KafkaListenerTokens.class);
  }

  /** A record of orders carrying a token of {@link #WRITTEN}. */
  private static ConsumerRecord<Object, Object> writtenRecord() {
    ConsumerRecord<Object, Object> record = new ConsumerRecord<>("orders", 0, 0, null, "1");
    record
        .headers()
        .add(
            "Consistency-Token",
            TestTokens.header("default", WRITTEN).getBytes(StandardCharsets.UTF_8));
    return record;
  }
}

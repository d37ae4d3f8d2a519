package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Reason;
import io.tidemark.spring.Replication;
import io.tidemark.spring.messaging.MessagingApplication.Instances;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AliasFor;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The token across a real Kafka broker (spring-kafka-test's embedded KRaft broker, in this JVM):
 * one instance writes and publishes, another instance's {@code @KafkaListener} reads the order
 * under {@code @ReadYourWrites} while the replica's applier is paused.
 */
class KafkaTokensIT extends BrokerTokensContract {

  private static EmbeddedKafkaKraftBroker broker;
  private static Replication replication;
  private static Instances instances;

  @BeforeAll
  static void start() {
    replication = Replication.Database.MYSQL.start("kafka", MessagingApplication.ORDERS);
    broker =
        new EmbeddedKafkaKraftBroker(
            1,
            1,
            "orders",
            "orders-batch",
            "orders-retry",
            "orders-retry-dead",
            "orders-off",
            "orders-off-batch");
    // One broker holds the transaction log alone.
    broker.brokerProperty("transaction.state.log.replication.factor", "1");
    broker.brokerProperty("transaction.state.log.min.isr", "1");
    broker.afterPropertiesSet();
    instances =
        new Instances(
            replication,
            start("messaging.listen=false"),
            start("messaging.listen=true", "spring.kafka.consumer.isolation-level=read-committed"));
  }

  private static ConfigurableApplicationContext start(String... extra) {
    String[] properties = new String[extra.length + 3];
    properties[0] = "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString();
    properties[1] = "spring.kafka.consumer.auto-offset-reset=earliest";
    properties[2] = "spring.kafka.listener.poll-timeout=200ms";
    System.arraycopy(extra, 0, properties, 3, extra.length);
    return MessagingApplication.start(replication, KafkaBroker.class, properties);
  }

  @AfterAll
  static void stop() {
    instances.close();
    broker.destroy();
  }

  @Override
  Instances instances() {
    return instances;
  }

  @Override
  String technology() {
    return "kafka";
  }

  /**
   * Kafka's transaction, synchronized with the database's, commits after it; the listener reads
   * committed records only.
   */
  @Override
  ConfigurableApplicationContext transactionalProducer() {
    return start("messaging.listen=false", "spring.kafka.producer.transaction-id-prefix=orders-");
  }

  @Test
  void aBatchListenerReadsWithTheUnionOfItsRecordsTokens() {
    deliverToBatch();
  }

  @Test
  void aRecordWithoutATokenIsReadOnTheReplicaWithoutAWait() {
    @SuppressWarnings("unchecked")
    KafkaTemplate<String, String> kafka = instances.producer().getBean(KafkaTemplate.class);
    long id = System.nanoTime();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      instances.producer().getBean(MessagingApplication.Orders.class).create(id);
    }
    replication.awaitCaughtUp();

    kafka.send("orders", Long.toString(id)).join(); // from a thread without a context

    Received.Outcome outcome = instances.consumer().getBean(Received.class).next();
    assertThat(outcome.found()).isEqualTo(1);
    assertThat(outcome.dirty()).isFalse();
    assertThat(outcome.reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
  }

  @Test
  void aRetriedRecordAndItsDeadLetterAreReadWithItsToken() {
    @SuppressWarnings("unchecked")
    KafkaTemplate<String, String> kafka = instances.producer().getBean(KafkaTemplate.class);
    deliverRetriedAndDead(payload -> kafka.send("orders-retry", payload).join());
  }

  @Override
  ConfigurableApplicationContext listenerWithoutTokens() {
    return start(
        "messaging.listen=true",
        "messaging.topic=orders-off",
        "spring.kafka.consumer.group-id=off",
        "tidemark.messaging.kafka.enabled=false");
  }

  /**
   * A listener of the consuming instance: in its consumer group, and started only where {@code
   * messaging.listen} is on.
   */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @KafkaListener(
      groupId = "${spring.kafka.consumer.group-id:consumer}",
      autoStartup = "${messaging.listen}")
  @interface ConsumerListener {
    @AliasFor(annotation = KafkaListener.class, attribute = "topics")
    String[] topics();

    @AliasFor(annotation = KafkaListener.class, attribute = "batch")
    String batch() default "";
  }

  /** The broker's part of the application: Boot's template and two listeners. */
  @Configuration(proxyBeanMethods = false)
  static class KafkaBroker {

    private final Received received;

    KafkaBroker(Received received) {
      this.received = received;
    }

    @Bean
    MessagingApplication.Publisher publisher(
        KafkaTemplate<String, String> kafka, @Value("${messaging.topic:orders}") String topic) {
      return new MessagingApplication.Publisher() {
        @Override
        public void publish(String payload) {
          kafka.send(topic, payload).join();
        }

        @Override
        public void publishToBatch(String payload) {
          kafka.send(topic + "-batch", payload).join();
        }

        @Override
        public void publishWithHeader(String payload, String header) {
          ProducerRecord<String, String> record = new ProducerRecord<>(topic, payload);
          record.headers().add("Consistency-Token", header.getBytes(StandardCharsets.UTF_8));
          kafka.send(record).join();
        }
      };
    }

    /** One retry, then the record goes to its topic's dead-letter topic. */
    @Bean
    DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<String, String> kafka) {
      return new DefaultErrorHandler(
          new DeadLetterPublishingRecoverer(
              kafka, (record, failure) -> new TopicPartition(record.topic() + "-dead", 0)),
          new FixedBackOff(0, 1));
    }

    /** Fails each record's first attempt, and every attempt of a dead one. */
    @ConsumerListener(topics = "orders-retry")
    void onRetried(String payload) {
      received.handleAfterFailingOnce(payload);
    }

    @ConsumerListener(topics = "orders-retry-dead")
    void onDeadLetter(String payload) {
      received.handleDeadLetter(payload);
    }

    /** With Kafka transactions on, {@code @Transactional} still means the database's. */
    @Bean
    static BeanFactoryPostProcessor databaseTransactionsFirst() {
      return beans -> {
        if (beans.containsBeanDefinition("transactionManager")) {
          beans.getBeanDefinition("transactionManager").setPrimary(true);
        }
      };
    }

    @ConsumerListener(topics = "${messaging.topic:orders}")
    void onOrder(String payload) {
      received.handle(payload);
    }

    @ConsumerListener(topics = "${messaging.topic:orders}-batch", batch = "true")
    void onOrders(List<String> payloads) {
      received.handle(payloads);
    }
  }
}

package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.Replication;
import io.tidemark.spring.messaging.MessagingApplication.Instances;
import io.tidemark.spring.messaging.MessagingApplication.Send;
import io.tidemark.spring.messaging.MessagingApplication.Tally;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.rabbitmq.RabbitServer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.RabbitTemplateCustomizer;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The token across a real RabbitMQ broker (Debian's, a process the testkit starts): one instance
 * writes and publishes with Boot's {@code RabbitTemplate}, another instance's
 * {@code @RabbitListener} reads the order under {@code @ReadYourWrites} while the replica's applier
 * is paused.
 */
@ExtendWith(TestkitExtension.class)
class RabbitTokensIT extends BrokerTokensContract {

  private static RabbitServer rabbit;
  private static Replication replication;
  private static Instances instances;

  @BeforeAll
  static void start(RabbitServer broker) {
    replication = Replication.Database.MYSQL.start("rabbit", MessagingApplication.ORDERS);
    rabbit = broker;
    instances =
        new Instances(replication, start("messaging.listen=false"), start("messaging.listen=true"));
  }

  private static ConfigurableApplicationContext start(String... extra) {
    String[] properties = new String[extra.length + 4];
    properties[0] = "spring.rabbitmq.host=" + rabbit.host();
    properties[1] = "spring.rabbitmq.port=" + rabbit.port();
    properties[2] = "spring.rabbitmq.username=" + rabbit.username();
    properties[3] = "spring.rabbitmq.password=" + rabbit.password();
    System.arraycopy(extra, 0, properties, 4, extra.length);
    return MessagingApplication.start(replication, RabbitBroker.class, properties);
  }

  @AfterAll
  static void stop() {
    instances.close();
  }

  @Override
  Instances instances() {
    return instances;
  }

  @Override
  String technology() {
    return "rabbit";
  }

  /** A transacted channel joins the database's transaction and commits after it. */
  @Override
  ConfigurableApplicationContext transactionalProducer() {
    return start("messaging.listen=false", "messaging.channel-transacted=true");
  }

  @Override
  ConfigurableApplicationContext listenerWithoutTokens() {
    return start(
        "messaging.listen=true",
        "messaging.queue=orders-off",
        "tidemark.messaging.rabbit.enabled=false");
  }

  @Test
  void aBatchListenerReadsWithTheUnionOfItsMessagesTokens() {
    int before = instances.consumer().getBean(RabbitBroker.class).batchCalls();
    deliverToBatch();

    assertThat(instances.consumer().getBean(RabbitBroker.class).batchCalls() - before)
        .as("listener calls for 300 messages")
        .isLessThan(300);
  }

  @Test
  void retriedMessagesAndDeadLettersAreReadWithTheirToken() {
    try (ConfigurableApplicationContext sender =
            start("messaging.listen=false", "messaging.queue=orders-retry");
        ConfigurableApplicationContext retrying =
            start(
                "messaging.listen=true",
                "messaging.queue=orders-retry",
                "messaging.fail-first-attempt=true",
                "spring.rabbitmq.listener.simple.retry.enabled=true",
                "spring.rabbitmq.listener.simple.retry.max-attempts=2",
                "spring.rabbitmq.listener.simple.retry.initial-interval=10ms")) {
      // Boot's stateless retry: each message's second attempt, in the same listener call.
      Tally tally =
          MessagingApplication.deliver(
              new Instances(replication, sender, retrying), Send.AFTER_WRITE, 1, 100);

      assertThat(retrying.getBean(RabbitBroker.class).failedAttempts()).isEqualTo(100);
      assertThat(tally.stale()).isZero();
      assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(100);

      // Both attempts fail: the broker dead-letters the message with its headers.
      MessagingApplication.Publisher publisher =
          sender.getBean(MessagingApplication.Publisher.class);
      long dead = System.nanoTime();
      writeAndSend(sender, () -> publisher.publish(DEAD + dead), dead);
      assertNextReadOnTheReplicaWithItsToken(retrying);
    }
  }

  /**
   * The broker's part of the application: Boot's template and listener container factory, a batch
   * factory of the application's own, and the queues.
   */
  @Configuration(proxyBeanMethods = false)
  static class RabbitBroker {

    private final Received received;
    private final boolean failFirstAttempt;
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger batches = new AtomicInteger();

    RabbitBroker(
        Received received,
        @Value("${messaging.fail-first-attempt:false}") boolean failFirstAttempt) {
      this.received = received;
      this.failFirstAttempt = failFirstAttempt;
    }

    int failedAttempts() {
      return failed.get();
    }

    int batchCalls() {
      return batches.get();
    }

    /** The queue, its batch queue, and the queue its rejected messages are dead-lettered to. */
    @Bean
    static Declarables queues(@Value("${messaging.queue:orders}") String queue) {
      return new Declarables(
          QueueBuilder.nonDurable(queue)
              .deadLetterExchange("")
              .deadLetterRoutingKey(queue + "-dead")
              .build(),
          QueueBuilder.nonDurable(queue + "-batch").build(),
          QueueBuilder.nonDurable(queue + "-dead").build());
    }

    @Bean
    static MessagingApplication.Publisher publisher(
        RabbitTemplate rabbit, @Value("${messaging.queue:orders}") String queue) {
      return new MessagingApplication.Publisher() {
        @Override
        public void publish(String payload) {
          rabbit.convertAndSend(queue, payload);
        }

        @Override
        public void publishToBatch(String payload) {
          rabbit.convertAndSend(queue + "-batch", payload);
        }

        @Override
        public void publishWithHeader(String payload, String header) {
          rabbit.convertAndSend(
              queue,
              payload,
              message -> {
                message.getMessageProperties().setHeader("Consistency-Token", header);
                return message;
              });
        }
      };
    }

    /** Boot has no property for it: a template whose sends join the database's transaction. */
    @Bean
    static RabbitTemplateCustomizer channelTransacted(
        @Value("${messaging.channel-transacted:false}") boolean transacted) {
      return template -> template.setChannelTransacted(transacted);
    }

    /**
     * Batches of up to 10 messages, as the container gathers them; static, as this class's
     * listeners name it.
     */
    @Bean
    static SimpleRabbitListenerContainerFactory batchFactory(
        SimpleRabbitListenerContainerFactoryConfigurer configurer, ConnectionFactory connections) {
      SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
      configurer.configure(factory, connections);
      factory.setBatchListener(true);
      factory.setConsumerBatchEnabled(true);
      factory.setBatchSize(10);
      factory.setReceiveTimeout(100L);
      return factory;
    }

    @RabbitListener(queues = "${messaging.queue:orders}", autoStartup = "${messaging.listen}")
    void onOrder(String payload) {
      if (failFirstAttempt && (payload.startsWith(DEAD) || attempted.add(payload))) {
        failed.incrementAndGet();
        throw new IllegalStateException("this attempt at " + payload + " fails");
      }
      received.handle(payload);
    }

    @RabbitListener(queues = "${messaging.queue:orders}-dead", autoStartup = "${messaging.listen}")
    void onDeadLetter(String payload) {
      received.handleDeadLetter(payload);
    }

    @RabbitListener(
        queues = "${messaging.queue:orders}-batch",
        containerFactory = "batchFactory",
        autoStartup = "${messaging.listen}")
    void onOrders(List<String> payloads) {
      batches.incrementAndGet();
      received.handle(payloads);
    }
  }
}

package io.tidemark.spring.messaging;

import io.tidemark.spring.Replication;
import io.tidemark.spring.messaging.MessagingApplication.Instances;
import io.tidemark.spring.messaging.MessagingApplication.Send;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.core.JmsClient;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.jms.support.JmsUtils;

/**
 * The token across a real JMS broker (an Artemis server embedded in this JVM, which both instances
 * reach through its in-VM acceptor): one instance writes and publishes with Boot's templates,
 * another instance's {@code @JmsListener}, and a listener container bean of its own, read the order
 * under {@code @ReadYourWrites} while the replica's applier is paused. On MySQL and on PostgreSQL
 * (a hot standby, its replay paused), with the same assertions.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Replication.Database.class)
class JmsTokensIT extends BrokerTokensContract {

  // Declares the class's one argument, which the start of each invocation takes.
  @Parameter Replication.Database database;

  private static final String BROKER = "vm://731";

  private static EmbeddedActiveMQ broker;
  private static Replication replication;
  private static Instances instances;

  @BeforeParameterizedClassInvocation
  static void start(Replication.Database database) throws Exception {
    replication = database.start("jms", MessagingApplication.ORDERS);
    broker = new EmbeddedActiveMQ().setConfiguration(brokerConfiguration()).start();
    instances = new Instances(replication, start(false), start(true));
  }

  private static Configuration brokerConfiguration() throws Exception {
    Path data = Files.createTempDirectory("tidemark-artemis");
    return new ConfigurationImpl()
        .setPersistenceEnabled(false)
        .setSecurityEnabled(false)
        .setJMXManagementEnabled(false)
        .setBindingsDirectory(data.resolve("bindings").toString())
        .setJournalDirectory(data.resolve("journal").toString())
        .setPagingDirectory(data.resolve("paging").toString())
        .setLargeMessagesDirectory(data.resolve("large").toString())
        .addAcceptorConfiguration("in-vm", BROKER)
        .addAddressSetting(
            "orders-retry",
            new AddressSettings()
                .setMaxDeliveryAttempts(2)
                .setDeadLetterAddress(SimpleString.of("orders-retry-dead")));
  }

  private static ConfigurableApplicationContext start(boolean listen, String... extra) {
    String[] properties = new String[extra.length + 5];
    properties[0] = "spring.artemis.mode=native";
    properties[1] = "spring.artemis.broker-url=" + BROKER;
    properties[2] = "spring.jms.listener.auto-startup=" + listen;
    properties[3] = "messaging.listen=" + listen;
    // The broker's audit log writes a few lines for each message.
    properties[4] = "logging.level.org.apache.activemq=WARN";
    System.arraycopy(extra, 0, properties, 5, extra.length);
    return MessagingApplication.start(replication, JmsBroker.class, properties);
  }

  @AfterParameterizedClassInvocation
  static void stop() throws Exception {
    try (Replication started = replication) {
      instances.close();
      broker.stop();
    }
  }

  @Override
  Instances instances() {
    return instances;
  }

  @Override
  String technology() {
    return "jms";
  }

  /** The template's transacted session is synchronized with the database transaction. */
  @Override
  ConfigurableApplicationContext transactionalProducer() {
    return start(false, "spring.jms.template.session.transacted=true");
  }

  @Override
  ConfigurableApplicationContext listenerWithoutTokens() {
    return start(true, "messaging.queue=orders-off", "tidemark.messaging.jms.enabled=false");
  }

  @Test
  void aMessageSentByJmsClientToAListenerContainerBeanIsReadOnTheReplica() {
    deliverToBatch();
  }

  @Test
  void aRedeliveredMessageAndItsDeadLetterAreReadWithItsToken() {
    JmsTemplate jms = instances.producer().getBean(JmsTemplate.class);
    deliverRetriedAndDead(payload -> jms.convertAndSend("orders-retry", payload));
  }

  /**
   * The broker's part of the application: Boot's template and JMS client, a {@code @JmsListener}
   * and a listener container bean. JMS has no batches: {@link Send#TO_BATCH} goes through {@code
   * JmsClient} to the container bean's queue.
   */
  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class JmsBroker {

    private static final String PROPERTY = "ConsistencyToken";

    private final Received received;

    JmsBroker(Received received) {
      this.received = received;
    }

    @Bean
    MessagingApplication.Publisher publisher(
        JmsTemplate jms, JmsClient client, @Value("${messaging.queue:orders}") String queue) {
      return new MessagingApplication.Publisher() {
        @Override
        public void publish(String payload) {
          jms.convertAndSend(queue, payload);
        }

        @Override
        public void publishToBatch(String payload) {
          client.destination(queue + "-second").send(payload);
        }

        @Override
        public void publishWithHeader(String payload, String header) {
          jms.convertAndSend(
              queue,
              payload,
              message -> {
                message.setStringProperty(PROPERTY, header);
                return message;
              });
        }
      };
    }

    @JmsListener(destination = "${messaging.queue:orders}")
    void onOrder(String payload) {
      received.handle(payload);
    }

    /**
     * Fails each message's first delivery, and every delivery of a dead one, which the broker moves
     * to the dead-letter address after two.
     */
    @JmsListener(destination = "orders-retry")
    void onRedelivered(String payload) {
      received.handleAfterFailingOnce(payload);
    }

    @JmsListener(destination = "orders-retry-dead")
    void onDeadLetter(String payload) {
      received.handleDeadLetter(payload);
    }

    @Bean
    DefaultMessageListenerContainer secondOrders(
        ConnectionFactory connections,
        @Value("${messaging.queue:orders}") String queue,
        @Value("${messaging.listen}") boolean listen) {
      DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
      container.setConnectionFactory(connections);
      container.setDestinationName(queue + "-second");
      container.setSessionTransacted(true);
      container.setAutoStartup(listen);
      container.setMessageListener(
          (MessageListener)
              message -> {
                try {
                  received.handle(message.getBody(String.class));
                } catch (JMSException e) {
                  throw JmsUtils.convertJmsAccessException(e);
                }
              });
      return container;
    }
  }
}

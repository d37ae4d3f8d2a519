package io.tidemark.spring.messaging;

import static io.tidemark.spring.messaging.EmbeddedArtemis.GTIDS;
import static io.tidemark.spring.messaging.EmbeddedArtemis.afterWrites;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.JmsTransactionManager;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the application sends through Boot's connection factory, on an embedded Artemis server: each
 * message carries the sending thread's token, whichever API sent it, and the factory is still the
 * bean the templates and the transaction manager share.
 */
class JmsSendTokensTests {

  private static final String PROPERTY = "ConsistencyToken";

  @Test
  void aSendFromABoundContextCarriesItsTokenThroughTheCachingFactoryBean() {
    EmbeddedArtemis.runner()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ConnectionFactory factory = context.getBean(ConnectionFactory.class);
              assertThat(factory).isInstanceOf(CachingConnectionFactory.class);
              assertThat(AopUtils.isCglibProxy(factory)).isTrue();
              assertThat(context.getBean(CachingConnectionFactory.class)).isSameAs(factory);
              sendsTheBoundToken(context.getBean(JmsTemplate.class), "send.bound");
            });
  }

  @Test
  void withoutCachingTheProvidersFactoryBeanIsCoveredAsItsOwnClass() {
    EmbeddedArtemis.runner()
        .withPropertyValues("spring.jms.cache.enabled=false")
        .run(
            context -> {
              ConnectionFactory factory = context.getBean(ConnectionFactory.class);
              assertThat(factory).isInstanceOf(ActiveMQConnectionFactory.class);
              assertThat(AopUtils.isCglibProxy(factory)).isTrue();
              sendsTheBoundToken(context.getBean(JmsTemplate.class), "send.uncached");
            });
  }

  @Test
  void aSendOutsideAnyContextAddsNothingAndOneInsideReplacesAStaleProperty() {
    EmbeddedArtemis.runner()
        .run(
            context -> {
              JmsTemplate jms = context.getBean(JmsTemplate.class);
              sendWithAStaleProperty(jms, "mine");
              try (ConsistencyContext.Binding bound = afterWrites()) {
                sendWithAStaleProperty(jms, "ours");
              }
              jms.convertAndSend("send.replaced", "none");

              assertThat(jms.receive("send.replaced").getStringProperty(PROPERTY))
                  .as("the application's own value, sent outside any context")
                  .isEqualTo("stale");
              assertThat(gtidsOf(jms.receive("send.replaced"))).isEqualTo(GtidSet.parse(GTIDS));
              assertThat(jms.receive("send.replaced").propertyExists(PROPERTY)).isFalse();
            });
  }

  @Test
  void aReceivedMessageSentOnKeepsItsPropertiesAndTakesTheToken() {
    EmbeddedArtemis.runner()
        .run(
            context -> {
              JmsTemplate jms = context.getBean(JmsTemplate.class);
              jms.convertAndSend(
                  "send.first",
                  "forwarded",
                  message -> {
                    message.setIntProperty("kept", 42);
                    message.setStringProperty("JMSXGroupID", "orders-7");
                    message.setStringProperty(PROPERTY, "stale");
                    return message;
                  });
              Message received = jms.receive("send.first");
              assertThatThrownBy(() -> received.setStringProperty("probe", "x"))
                  .as("a received message's properties are read-only")
                  .isInstanceOf(jakarta.jms.MessageNotWriteableException.class);

              try (ConsistencyContext.Binding bound = afterWrites()) {
                jms.send("send.second", session -> received);
              }

              Message forwarded = jms.receive("send.second");
              assertThat(((TextMessage) forwarded).getText()).isEqualTo("forwarded");
              assertThat(forwarded.getIntProperty("kept")).isEqualTo(42);
              assertThat(forwarded.getStringProperty("JMSXGroupID")).isEqualTo("orders-7");
              assertThat(gtidsOf(forwarded)).isEqualTo(GtidSet.parse(GTIDS));
            });
  }

  @Test
  void aSendInAJmsTransactionStaysInItsTransaction() {
    EmbeddedArtemis.runner()
        .withUserConfiguration(JmsTransactions.class)
        .run(
            context -> {
              JmsTemplate jms = context.getBean(JmsTemplate.class);
              TransactionTemplate transaction = context.getBean(TransactionTemplate.class);
              jms.setReceiveTimeout(500);

              try (ConsistencyContext.Binding bound = afterWrites()) {
                transaction.executeWithoutResult(
                    status -> {
                      jms.convertAndSend("send.transacted", "rolled back");
                      status.setRollbackOnly();
                    });
                transaction.executeWithoutResult(
                    status -> jms.convertAndSend("send.transacted", "committed"));
              }

              Message first = jms.receive("send.transacted");
              assertThat(((TextMessage) first).getText()).isEqualTo("committed");
              assertThat(gtidsOf(first)).isEqualTo(GtidSet.parse(GTIDS));
              assertThat(jms.receive("send.transacted")).isNull();
            });
  }

  @Test
  void theJmsContextApiCarriesTheTokenOnBodiesAndOnMessages() {
    EmbeddedArtemis.runner()
        .run(
            context -> {
              ConnectionFactory factory = context.getBean(ConnectionFactory.class);
              try (JMSContext jms = factory.createContext()) {
                Queue queue = jms.createQueue("send.context");
                JMSProducer producer = jms.createProducer().setProperty("kept", "yes");
                try (ConsistencyContext.Binding bound = afterWrites()) {
                  assertThat(producer.send(queue, "text")).isSameAs(producer);
                  producer.send(queue, Map.of("key", 1));
                  producer.send(queue, new byte[] {1, 2});
                  producer.send(queue, (java.io.Serializable) Integer.valueOf(3));
                  producer.send(queue, jms.createTextMessage("message"));
                }
                producer.send(queue, "outside");

                try (JMSConsumer consumer = jms.createConsumer(queue)) {
                  for (int i = 0; i < 5; i++) {
                    Message message = consumer.receive(5000);
                    assertThat(gtidsOf(message)).as("send %d", i).isEqualTo(GtidSet.parse(GTIDS));
                    assertThat(message.getStringProperty("kept")).isEqualTo("yes");
                  }
                  Message outside = consumer.receive(5000);
                  assertThat(outside.getBody(String.class)).isEqualTo("outside");
                  assertThat(outside.propertyExists(PROPERTY)).isFalse();
                }
              }
            });
  }

  /**
   * Checks a message {@code jms} sends to {@code queue} from a context after writes arrives with
   * the context's token.
   */
  private static void sendsTheBoundToken(JmsTemplate jms, String queue)
      throws jakarta.jms.JMSException {
    try (ConsistencyContext.Binding bound = afterWrites()) {
      jms.convertAndSend(queue, "hello");
    }

    assertThat(gtidsOf(jms.receive(queue))).isEqualTo(GtidSet.parse(GTIDS));
  }

  /** Sends {@code text} to send.replaced with the token property the application set, stale. */
  private static void sendWithAStaleProperty(JmsTemplate jms, String text) {
    jms.convertAndSend(
        "send.replaced",
        text,
        message -> {
          message.setStringProperty(PROPERTY, "stale");
          return message;
        });
  }

  private static GtidSet gtidsOf(@Nullable Message message) throws jakarta.jms.JMSException {
    assertThat(message).as("a message arrived").isNotNull();
    String value = message.getStringProperty(PROPERTY);
    assertThat(value).as("the token property").isNotNull();
    return TestTokens.verified(value);
  }

  @Configuration(proxyBeanMethods = false)
  static class JmsTransactions {

    @Bean
    JmsTransactionManager transactionManager(ConnectionFactory factory) {
      return new JmsTransactionManager(factory);
    }

    @Bean
    TransactionTemplate transactionTemplate(JmsTransactionManager transactions) {
      return new TransactionTemplate(transactions);
    }
  }
}

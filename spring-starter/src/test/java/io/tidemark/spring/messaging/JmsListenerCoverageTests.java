package io.tidemark.spring.messaging;

import static io.tidemark.spring.messaging.EmbeddedArtemis.GTIDS;
import static io.tidemark.spring.messaging.EmbeddedArtemis.afterWrites;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.annotation.JmsListenerConfigurer;
import org.springframework.jms.config.DefaultJmsListenerContainerFactory;
import org.springframework.jms.config.JmsListenerContainerFactory;
import org.springframework.jms.config.JmsListenerEndpointRegistrar;
import org.springframework.jms.config.JmsListenerEndpointRegistry;
import org.springframework.jms.config.SimpleJmsListenerEndpoint;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.jms.listener.SessionAwareMessageListener;
import org.springframework.messaging.handler.annotation.SendTo;

/**
 * Every kind of listener container, on an embedded Artemis server, runs its listener in the context
 * of the message's token: a {@code @JmsListener} method's (whose reply carries the token on), one
 * of a factory that is no bean, one registered after the start, and a container bean.
 */
class JmsListenerCoverageTests {

  private static final GtidSet WRITTEN = GtidSet.parse(GTIDS);

  @Test
  void aJmsListenerMethodRunsInTheContextOfItsMessageAndItsReplyCarriesTheToken() {
    EmbeddedArtemis.runner()
        .withUserConfiguration(Seen.class, Annotated.class)
        .run(
            context -> {
              JmsTemplate jms = context.getBean(JmsTemplate.class);
              try (ConsistencyContext.Binding bound = afterWrites()) {
                jms.convertAndSend("listen.annotated", "order 7");
              }

              assertThat(context.getBean(Seen.class).next()).isEqualTo(WRITTEN);
              Message reply = jms.receive("listen.replies");
              assertThat(reply.getBody(String.class)).isEqualTo("seen order 7");
              assertThat(TestTokens.verified(reply.getStringProperty("ConsistencyToken")))
                  .isEqualTo(WRITTEN);
              JmsListenerEndpointRegistry registry =
                  context.getBean(JmsListenerEndpointRegistry.class);
              assertThat(registry.getListenerContainers()).allMatch(JmsListenerTokens::covered);
            });
  }

  @Test
  void aContainerOfAFactoryThatIsNoBeanIsCoveredAtTheStart() {
    EmbeddedArtemis.runner()
        .withUserConfiguration(Seen.class, OwnFactory.class)
        .run(
            context -> {
              assertThat(
                      context
                          .getBean(JmsListenerEndpointRegistry.class)
                          .getListenerContainer("own"))
                  .matches(JmsListenerTokens::covered);
              sendAfterWrites(context.getBean(JmsTemplate.class), "listen.own");
              assertThat(context.getBean(Seen.class).next()).isEqualTo(WRITTEN);
            });
  }

  @Test
  void aContainerRegisteredAfterTheStartIsCoveredByItsFactoryBean() {
    EmbeddedArtemis.runner()
        .withUserConfiguration(Seen.class)
        .run(
            context -> {
              JmsListenerEndpointRegistry registry =
                  context.getBean(JmsListenerEndpointRegistry.class);
              Seen seen = context.getBean(Seen.class);
              registry.registerListenerContainer(
                  endpoint("late", "listen.late", seen),
                  context.getBean("jmsListenerContainerFactory", JmsListenerContainerFactory.class),
                  true);

              assertThat(registry.getListenerContainer("late")).matches(JmsListenerTokens::covered);
              sendAfterWrites(context.getBean(JmsTemplate.class), "listen.late");
              assertThat(seen.next()).isEqualTo(WRITTEN);
            });
  }

  @Test
  void aContainerBeanIsCoveredAndKeepsItsSessionAwareListener() {
    EmbeddedArtemis.runner()
        .withUserConfiguration(Seen.class, ContainerBean.class)
        .run(
            context -> {
              DefaultMessageListenerContainer container =
                  context.getBean(DefaultMessageListenerContainer.class);
              assertThat(container).matches(JmsListenerTokens::covered);
              assertThat(container.getMessageListener())
                  .isInstanceOf(SessionAwareMessageListener.class);
              sendAfterWrites(context.getBean(JmsTemplate.class), "listen.bean");
              assertThat(context.getBean(Seen.class).next()).isEqualTo(WRITTEN);
            });
  }

  private static void sendAfterWrites(JmsTemplate jms, String destination) {
    try (ConsistencyContext.Binding bound = afterWrites()) {
      jms.convertAndSend(destination, "hello");
    }
  }

  private static SimpleJmsListenerEndpoint endpoint(String id, String destination, Seen seen) {
    SimpleJmsListenerEndpoint endpoint = new SimpleJmsListenerEndpoint();
    endpoint.setId(id);
    endpoint.setDestination(destination);
    endpoint.setMessageListener((MessageListener) message -> seen.record());
    return endpoint;
  }

  /** The GTIDs of the context each listener ran in, or none's. */
  static class Seen {

    private final BlockingQueue<GtidSet> contexts = new LinkedBlockingQueue<>();

    void record() {
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      contexts.add(context == null ? GtidSet.parse(TestTokens.B + ":1") : context.gtids());
    }

    GtidSet next() throws InterruptedException {
      GtidSet next = contexts.poll(10, TimeUnit.SECONDS);
      assertThat(next).as("a listener ran").isNotNull();
      return next;
    }
  }

  static class Annotated {

    private final Seen seen;

    Annotated(Seen seen) {
      this.seen = seen;
    }

    @JmsListener(destination = "listen.annotated")
    @SendTo("listen.replies")
    String onOrder(String body) {
      seen.record();
      return "seen " + body;
    }
  }

  static class OwnFactory implements JmsListenerConfigurer {

    private final ConnectionFactory connections;
    private final Seen seen;

    OwnFactory(ConnectionFactory connections, Seen seen) {
      this.connections = connections;
      this.seen = seen;
    }

    @Override
    public void configureJmsListeners(JmsListenerEndpointRegistrar registrar) {
      DefaultJmsListenerContainerFactory factory = new DefaultJmsListenerContainerFactory();
      factory.setConnectionFactory(connections);
      registrar.registerEndpoint(endpoint("own", "listen.own", seen), factory);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ContainerBean {

    @Bean
    DefaultMessageListenerContainer beanContainer(ConnectionFactory connections, Seen seen) {
      DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
      container.setConnectionFactory(connections);
      container.setDestinationName("listen.bean");
      container.setMessageListener(
          (SessionAwareMessageListener<Message>) (message, session) -> seen.record());
      return container;
    }
  }
}

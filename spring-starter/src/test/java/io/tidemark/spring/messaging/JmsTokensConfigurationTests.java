package io.tidemark.spring.messaging;

import static io.tidemark.spring.autoconfigure.ContextBeans.withoutOnTheClassPath;
import static io.tidemark.spring.messaging.EmbeddedArtemis.GTIDS;
import static io.tidemark.spring.messaging.EmbeddedArtemis.afterWrites;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.autoconfigure.TidemarkRunners;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.jms.core.JmsTemplate;

/** When the JMS hooks are on, and the property names JMS can carry. */
class JmsTokensConfigurationTests {

  @ParameterizedTest
  @ValueSource(strings = {"Consistency-Token", "1token", "JMSXToken", "JMS_token", "and", ""})
  void aPropertyNameJmsCannotCarryStopsTheStart(String name) {
    EmbeddedArtemis.runner()
        .withPropertyValues("tidemark.messaging.jms.property=" + name)
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessageContaining("tidemark.messaging.jms.property is '" + name + "'"));
  }

  @Test
  void anotherPropertyNameCarriesTheToken() {
    EmbeddedArtemis.runner()
        .withPropertyValues("tidemark.messaging.jms.property=tidemark_token")
        .run(
            context -> {
              JmsTemplate jms = context.getBean(JmsTemplate.class);
              try (ConsistencyContext.Binding bound = afterWrites()) {
                jms.convertAndSend("configured.name", "hello");
              }
              Message message = jms.receive("configured.name");
              assertThat(message.propertyExists("ConsistencyToken")).isFalse();
              assertThat(TestTokens.verified(message.getStringProperty("tidemark_token")))
                  .isEqualTo(GtidSet.parse(GTIDS));
            });
  }

  @Test
  void turnedOffTheFactoryIsLeftAloneAndTheNameUnchecked() {
    EmbeddedArtemis.runner()
        .withPropertyValues(
            "tidemark.messaging.jms.enabled=false", "tidemark.messaging.jms.property=not-a-name")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(AopUtils.isAopProxy(context.getBean(ConnectionFactory.class))).isFalse();
              assertThat(context).doesNotHaveBean(JmsTokensPostProcessor.class);
              assertThat(context).doesNotHaveBean(JmsListenerCoverage.class);
            });
  }

  @Test
  void withoutSpringJmsThereIsNothingToHook() {
    withoutOnTheClassPath(
        EmbeddedArtemis.runner(),
        new FilteredClassLoader(JmsTemplate.class),
        MessageTokens.class,
        JmsTokensPostProcessor.class);
  }
}

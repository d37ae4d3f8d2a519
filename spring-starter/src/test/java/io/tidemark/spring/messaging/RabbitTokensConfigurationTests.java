package io.tidemark.spring.messaging;

import static io.tidemark.spring.autoconfigure.ContextBeans.withoutOnTheClassPath;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestConfigurations;
import org.aopalliance.aop.Advice;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.config.StatelessRetryOperationsInterceptor;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The RabbitMQ hooks on the template and listener container factory that Boot configures. */
class RabbitTokensConfigurationTests {

  private final ApplicationContextRunner runner =
      TestConfigurations.withCodec(
          new ApplicationContextRunner(),
          RabbitAutoConfiguration.class,
          TidemarkMessagingAutoConfiguration.class);

  @Test
  void bootsTemplateAndListenerFactoryCarryTheTokenAheadOfTheRetry() {
    runner
        .withPropertyValues("spring.rabbitmq.listener.simple.retry.enabled=true")
        .run(
            context -> {
              assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors())
                  .singleElement()
                  .isInstanceOf(RabbitPublishTokens.class);
              Advice[] chain =
                  context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain();
              assertThat(chain).hasSize(2);
              assertThat(chain[0]).isInstanceOf(RabbitListenerTokens.class);
              assertThat(chain[1]).isInstanceOf(StatelessRetryOperationsInterceptor.class);
            });
  }

  @Test
  void backsOffWhenRabbitTokensAreDisabled() {
    runner
        .withPropertyValues("tidemark.messaging.rabbit.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(RabbitTokensPostProcessor.class);
              assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors())
                  .isNull();
              assertThat(
                      context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain())
                  .isNull();
            });
  }

  @Test
  void staysOutWithoutSpringRabbit() {
    withoutOnTheClassPath(
        runner,
        new FilteredClassLoader(RabbitTemplate.class),
        MessageTokens.class,
        RabbitTokensPostProcessor.class);
  }
}

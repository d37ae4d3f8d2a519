package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TidemarkRunners;
import io.tidemark.token.TokenRejectedException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

class TidemarkMessagingAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      TestConfigurations.withCodec(
          new ApplicationContextRunner(), TidemarkMessagingAutoConfiguration.class);

  @Test
  void carriesTokensOnKafkaWhenItIsOnTheClassPath() {
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(MessageTokens.class);
          assertThat(context).hasSingleBean(KafkaTokensPostProcessor.class);
        });
  }

  @Test
  void kafkaTurnsOffByItsProperty() {
    runner
        .withPropertyValues("tidemark.messaging.kafka.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(KafkaTokensPostProcessor.class));
  }

  @Test
  void leavesOutKafkaWhenItIsNotOnTheClassPath() {
    runner
        .withClassLoader(new FilteredClassLoader(DefaultKafkaProducerFactory.class))
        .run(context -> assertThat(context).doesNotHaveBean(KafkaTokensPostProcessor.class));
  }

  @Test
  void backsOffWhenTidemarkIsDisabledOrHasNoCodec() {
    runner
        .withPropertyValues("tidemark.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(MessageTokens.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(TidemarkMessagingAutoConfiguration.class))
        .withUserConfiguration(TestConfigurations.PropertiesOnly.class)
        .run(context -> assertThat(context).doesNotHaveBean(MessageTokens.class));
  }

  @Test
  void aBlankHeaderNameStopsTheStart() {
    runner
        .withPropertyValues("tidemark.messaging.header= ")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessageContaining("tidemark.messaging.header is blank"));
  }

  @Test
  void countsRejectedTokensByTechnologyAndReason() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context -> {
              context
                  .getBean(MessageTokens.Rejections.class)
                  .rejected("kafka", TokenRejectedException.Check.EXPIRED);

              assertThat(
                      context
                          .getBean(MeterRegistry.class)
                          .get("tidemark.messaging.rejected")
                          .tag("technology", "kafka")
                          .tag("reason", "expired")
                          .counter()
                          .count())
                  .isEqualTo(1.0);
            });
  }
}

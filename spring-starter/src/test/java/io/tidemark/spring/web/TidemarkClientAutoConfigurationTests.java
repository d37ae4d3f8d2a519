package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TestTokens;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

class TidemarkClientAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withPropertyValues("tidemark.token.secret=" + TestTokens.SECRET)
          .withConfiguration(AutoConfigurations.of(TidemarkClientAutoConfiguration.class));

  @Test
  void contributesTheCustomizersAndTheTaskDecorator() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(RestClientCustomizer.class);
              assertThat(context).hasSingleBean(RestTemplateCustomizer.class);
              assertThat(context).hasSingleBean(WebClientCustomizer.class);
              assertThat(context).hasSingleBean(ConsistencyTaskDecorator.class);
            });
  }

  @Test
  void backsOffWhenTidemarkIsDisabled() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
              assertThat(context).doesNotHaveBean(RestTemplateCustomizer.class);
              assertThat(context).doesNotHaveBean(WebClientCustomizer.class);
              assertThat(context).doesNotHaveBean(TaskDecorator.class);
            });
  }

  @Test
  void backsOffWithoutTheCoreAutoConfigurationsCodec() {
    runner
        .withUserConfiguration(TestConfigurations.PropertiesOnly.class)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
              assertThat(context).doesNotHaveBean(TaskDecorator.class);
            });
  }

  @Test
  void leavesOutEachClientThatIsNotOnTheClassPath() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withClassLoader(new FilteredClassLoader(WebClient.class))
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(WebClientCustomizer.class);
              assertThat(context).hasSingleBean(RestClientCustomizer.class);
            });
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withClassLoader(new FilteredClassLoader(RestClient.class))
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
              assertThat(context).hasSingleBean(RestTemplateCustomizer.class);
            });
    runner
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withClassLoader(
            new FilteredClassLoader(RestClientCustomizer.class, RestTemplateCustomizer.class))
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
              assertThat(context).doesNotHaveBean(RestTemplateCustomizer.class);
              assertThat(context).hasSingleBean(WebClientCustomizer.class);
            });
  }

  @Test
  void usesTheApplicationsBeansOfTheSameNames() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class, Replacements.class)
        .run(
            context -> {
              assertThat(context.getBean("tidemarkRestClientCustomizer"))
                  .isSameAs(Replacements.REST_CLIENT);
              assertThat(context.getBean("tidemarkTaskDecorator")).isSameAs(Replacements.TASKS);
              assertThat(context).doesNotHaveBean(ConsistencyTaskDecorator.class);
            });
  }

  @Test
  void bootsApplicationTaskExecutorRunsTasksInTheSubmittersContextAndBudget() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class, AnotherDecorator.class)
        .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
        .run(
            context -> {
              AsyncTaskExecutor executor =
                  context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
              Deadline deadline = Deadline.after(Duration.ofMinutes(1), Ticker.systemTicker());
              try (ConsistencyContext.Binding binding =
                  ConsistencyContext.create(GtidSet.parse(TestTokens.A + ":1-3"), deadline)
                      .attach()) {
                Future<String> seen =
                    executor.submit(
                        () -> {
                          ConsistencyContext bound = ConsistencyContext.currentOrNull();
                          if (bound == null) {
                            return "no context";
                          }
                          bound.merge(GtidSet.parse(TestTokens.B + ":9"));
                          return bound.gtids().toSingleLineString()
                              + (bound.deadline() == deadline ? " budget" : " no budget")
                              + " "
                              + AnotherDecorator.RAN.get();
                        });

                assertThat(seen.get())
                    .isEqualTo(
                        GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9")
                                .toSingleLineString()
                            + " budget true");
                assertThat(binding.context().gtids())
                    .isEqualTo(GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9"));
              }
            });
  }

  @Test
  void withTheApplicationsContextPropagatingDecoratorBootsExecutorsCarryTheContextThroughIt() {
    runner
        .withUserConfiguration(TestConfigurations.Codec.class, ContextPropagation.class)
        .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(ConsistencyTaskDecorator.class);
              assertThat(context.getBeansOfType(TaskDecorator.class))
                  .as("one mechanism binds the context")
                  .containsOnlyKeys("contextPropagatingTaskDecorator");

              assertThat(
                      seenInContext(
                          context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class)))
                  .isEqualTo(SEEN);

              ThreadPoolTaskExecutor single =
                  context
                      .getBean(ThreadPoolTaskExecutorBuilder.class)
                      .corePoolSize(1)
                      .maxPoolSize(1)
                      .build();
              single.initialize();
              try {
                assertThat(seenInContext(single)).isEqualTo(SEEN);
                assertThat(
                        single
                            .submit(() -> String.valueOf(ConsistencyContext.currentOrNull()))
                            .get(10, TimeUnit.SECONDS))
                    .as("left on the pool's thread")
                    .isEqualTo("null");
              } finally {
                single.shutdown();
              }
            });
  }

  @Test
  void aContextPropagatingDecoratorDeclaredAsAPlainTaskDecoratorWorksBesideTidemarksOwn() {
    // Its bean type does not tell what it is, so Tidemark's decorator stays: the task is bound
    // to the same context twice, nested, and both bindings are undone.
    runner
        .withUserConfiguration(TestConfigurations.Codec.class, PlainlyDeclaredPropagation.class)
        .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
        .run(
            context -> {
              assertThat(context).hasSingleBean(ConsistencyTaskDecorator.class);
              ThreadPoolTaskExecutor single =
                  context
                      .getBean(ThreadPoolTaskExecutorBuilder.class)
                      .corePoolSize(1)
                      .maxPoolSize(1)
                      .build();
              single.initialize();
              try {
                assertThat(seenInContext(single)).isEqualTo(SEEN);
                assertThat(
                        single
                            .submit(() -> String.valueOf(ConsistencyContext.currentOrNull()))
                            .get(10, TimeUnit.SECONDS))
                    .isEqualTo("null");
              } finally {
                single.shutdown();
              }
            });
  }

  private static final String SEEN =
      GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9").toSingleLineString()
          + " budget, merged";

  /**
   * What a task run by {@code executor} sees of the submitter's context, which it adds a GTID to:
   * its GTIDs, whether it has the submitter's deadline, and whether the GTID reached the submitter.
   */
  private static String seenInContext(AsyncTaskExecutor executor) throws Exception {
    Deadline deadline = Deadline.after(Duration.ofMinutes(1), Ticker.systemTicker());
    try (ConsistencyContext.Binding binding =
        ConsistencyContext.create(GtidSet.parse(TestTokens.A + ":1-3"), deadline).attach()) {
      Future<String> seen =
          executor.submit(
              () -> {
                ConsistencyContext bound = ConsistencyContext.currentOrNull();
                if (bound == null) {
                  return "no context";
                }
                bound.merge(GtidSet.parse(TestTokens.B + ":9"));
                return bound.gtids().toSingleLineString()
                    + (bound.deadline() == deadline ? " budget" : " no budget");
              });
      String task = seen.get(10, TimeUnit.SECONDS);
      return task
          + (binding.context().gtids().containsAll(GtidSet.parse(TestTokens.B + ":9"))
              ? ", merged"
              : ", not merged");
    }
  }

  /** Spring's decorator of io.micrometer:context-propagation, as an application declares it. */
  @Configuration(proxyBeanMethods = false)
  static class ContextPropagation {

    @Bean
    ContextPropagatingTaskDecorator contextPropagatingTaskDecorator() {
      return new ContextPropagatingTaskDecorator();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class PlainlyDeclaredPropagation {

    @Bean
    TaskDecorator contextPropagatingTaskDecorator() {
      return new ContextPropagatingTaskDecorator();
    }
  }

  /** The application's own decorator, which Boot must apply as well as Tidemark's. */
  @Configuration(proxyBeanMethods = false)
  static class AnotherDecorator {
    static final ThreadLocal<Boolean> RAN = ThreadLocal.withInitial(() -> false);

    @Bean
    TaskDecorator applicationsDecorator() {
      return task ->
          () -> {
            RAN.set(true);
            try {
              task.run();
            } finally {
              RAN.remove();
            }
          };
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Replacements {
    static final RestClientCustomizer REST_CLIENT = builder -> {};
    static final TaskDecorator TASKS = task -> task;

    @Bean
    RestClientCustomizer tidemarkRestClientCustomizer() {
      return REST_CLIENT;
    }

    @Bean
    TaskDecorator tidemarkTaskDecorator() {
      return TASKS;
    }
  }
}

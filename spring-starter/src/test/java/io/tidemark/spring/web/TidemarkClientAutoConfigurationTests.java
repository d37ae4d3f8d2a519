package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.ContextBeans.hasNone;
import static io.tidemark.spring.autoconfigure.ContextBeans.hasOne;
import static io.tidemark.spring.autoconfigure.ContextBeans.withoutOnTheClassPath;
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
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

class TidemarkClientAutoConfigurationTests {

  private final ApplicationContextRunner withCodec =
      TestConfigurations.withCodec(
          new ApplicationContextRunner(), TidemarkClientAutoConfiguration.class);

  @Test
  void contributesTheCustomizersAndTheTaskDecorator() {
    withCodec.run(
        context ->
            hasOne(
                context,
                RestClientCustomizer.class,
                RestTemplateCustomizer.class,
                WebClientCustomizer.class,
                ConsistencyTaskDecorator.class));
  }

  @Test
  void backsOffWhenTidemarkIsDisabled() {
    withCodec
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context ->
                hasNone(
                    context,
                    RestClientCustomizer.class,
                    RestTemplateCustomizer.class,
                    WebClientCustomizer.class,
                    TaskDecorator.class));
  }

  @Test
  void backsOffWithoutTheCoreAutoConfigurationsCodec() {
    TestConfigurations.withSecret(
            new ApplicationContextRunner(), TidemarkClientAutoConfiguration.class)
        .withUserConfiguration(TestConfigurations.PropertiesOnly.class)
        .run(context -> hasNone(context, RestClientCustomizer.class, TaskDecorator.class));
  }

  @Test
  void leavesOutEachClientThatIsNotOnTheClassPath() {
    withoutOnTheClassPath(
        withCodec,
        new FilteredClassLoader(WebClient.class),
        RestClientCustomizer.class,
        WebClientCustomizer.class);
    withoutOnTheClassPath(
        withCodec,
        new FilteredClassLoader(RestClient.class),
        RestTemplateCustomizer.class,
        RestClientCustomizer.class);
    withoutOnTheClassPath(
        withCodec,
        new FilteredClassLoader(RestClientCustomizer.class, RestTemplateCustomizer.class),
        WebClientCustomizer.class,
        RestClientCustomizer.class,
        RestTemplateCustomizer.class);
  }

  @Test
  void usesTheApplicationsBeansOfTheSameNames() {
    withCodec
        .withUserConfiguration(Replacements.class)
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
    withTasks(AnotherDecorator.class)
        .run(
            context -> {
              Seen seen =
                  seen(
                      context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class),
                      () -> " " + AnotherDecorator.RAN.get());

              assertThat(seen.task())
                  .isEqualTo(
                      GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9")
                              .toSingleLineString()
                          + " budget true");
              assertThat(seen.submitters())
                  .isEqualTo(GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9"));
            });
  }

  @Test
  void withTheApplicationsContextPropagatingDecoratorBootsExecutorsCarryTheContextThroughIt() {
    withTasks(ContextPropagation.class)
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

              aSingleThreadBuiltExecutorCarriesTheContextAndLeavesItBehind(context);
            });
  }

  @Test
  void aContextPropagatingDecoratorDeclaredAsAPlainTaskDecoratorWorksBesideTidemarksOwn() {
    // Its bean type does not tell what it is, so Tidemark's decorator stays: the task is bound
    // to the same context twice, nested, and both bindings are undone.
    withTasks(PlainlyDeclaredPropagation.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(ConsistencyTaskDecorator.class);
              aSingleThreadBuiltExecutorCarriesTheContextAndLeavesItBehind(context);
            });
  }

  private static final String SEEN =
      GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":9").toSingleLineString()
          + " budget, merged";

  /** With the core's codec, Boot's task execution auto-configuration and {@code configuration}. */
  private ApplicationContextRunner withTasks(Class<?> configuration) {
    return withCodec
        .withUserConfiguration(configuration)
        .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class));
  }

  /**
   * Checks that an executor built with Boot's builder, of one thread, runs a task in the
   * submitter's context and leaves no context on its thread after.
   */
  private static void aSingleThreadBuiltExecutorCarriesTheContextAndLeavesItBehind(
      ApplicationContext context) throws Exception {
    ThreadPoolTaskExecutor single =
        context.getBean(ThreadPoolTaskExecutorBuilder.class).corePoolSize(1).maxPoolSize(1).build();
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
  }

  /**
   * What a task run by {@code executor} sees of the submitter's context, which it adds a GTID to:
   * its GTIDs, whether it has the submitter's deadline, and whether the GTID reached the submitter.
   */
  private static String seenInContext(AsyncTaskExecutor executor) throws Exception {
    Seen seen = seen(executor, () -> "");
    return seen.task()
        + (seen.submitters().containsAll(GtidSet.parse(TestTokens.B + ":9"))
            ? ", merged"
            : ", not merged");
  }

  /**
   * What a task run by {@code executor} sees of the submitter's context, which it adds a GTID to
   * (its GTIDs, whether it has the submitter's deadline, then what {@code alsoSeen} tells on the
   * task's thread), and the submitter's GTIDs after.
   */
  private static Seen seen(AsyncTaskExecutor executor, Supplier<String> alsoSeen) throws Exception {
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
                    + (bound.deadline() == deadline ? " budget" : " no budget")
                    + alsoSeen.get();
              });
      String task = seen.get(10, TimeUnit.SECONDS);
      return new Seen(task, binding.context().gtids());
    }
  }

  /** What a task saw of the submitter's context, and the submitter's GTIDs after it. */
  private record Seen(String task, GtidSet submitters) {}

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

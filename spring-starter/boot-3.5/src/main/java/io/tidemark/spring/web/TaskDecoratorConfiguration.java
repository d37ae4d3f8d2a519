package io.tidemark.spring.web;

import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;

/**
 * Tidemark's {@code TaskDecorator} on Spring Boot 3.5, which gives its executors and schedulers a
 * decorator only when it is the one bean of its type or the primary one: with the application's
 * own decorator beside Tidemark's, neither would run. So a primary decorator applies all of them,
 * the application's first and Tidemark's outermost. (The build for Spring Boot 4, which applies
 * every decorator bean, has only Tidemark's.)
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(
    type = "org.springframework.core.task.support.ContextPropagatingTaskDecorator")
class TaskDecoratorConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "tidemarkTaskDecorator")
  ConsistencyTaskDecorator tidemarkTaskDecorator() {
    return new ConsistencyTaskDecorator();
  }

  @Bean
  @Primary
  TaskDecorator tidemarkTaskDecorators(ObjectProvider<TaskDecorator> decorators) {
    return new AllDecorators(decorators);
  }

  /** Every other decorator bean, in bean order, looked up once the beans are all made. */
  private static final class AllDecorators implements TaskDecorator {

    private final ObjectProvider<TaskDecorator> decorators;
    private volatile @Nullable TaskDecorator all;

    AllDecorators(ObjectProvider<TaskDecorator> decorators) {
      this.decorators = decorators;
    }

    @Override
    public Runnable decorate(Runnable task) {
      TaskDecorator composite = all;
      if (composite == null) {
        // Tidemark's last (a stable sort), so that it binds the context around the others.
        List<TaskDecorator> others =
            decorators
                .orderedStream()
                .filter(decorator -> decorator != this)
                .sorted(Comparator.comparing(ConsistencyTaskDecorator.class::isInstance))
                .toList();
        composite = new CompositeTaskDecorator(others);
        all = composite;
      }
      return composite.decorate(task);
    }
  }
}

package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import org.springframework.core.task.TaskDecorator;

/**
 * Carries the submitting thread's consistency context, request deadline and forwarded tokens into a
 * task, so that its reads see the request's writes, its writes are merged into the request's
 * context, and its reads end within what is left of the request's budget. Spring Boot applies every
 * {@code TaskDecorator} bean to the executors and schedulers it configures.
 *
 * <p>The context is shared, not copied: a write the task commits before the response is committed
 * is in the response token; one committed later is not, and the task's own reads still see it.
 *
 * <p>Not registered when the application has Spring's {@code ContextPropagatingTaskDecorator} bean,
 * which carries the context through core's {@code ConsistencyContextAccessor} the same way.
 */
final class ConsistencyTaskDecorator implements TaskDecorator {

  @Override
  public Runnable decorate(Runnable task) {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    return context == null ? task : context.wrap(task);
  }
}

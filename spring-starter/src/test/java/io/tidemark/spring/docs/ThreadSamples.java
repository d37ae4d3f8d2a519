package io.tidemark.spring.docs;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

/** The context on threads of the application's own; run by {@code DocumentationSamplesTests}. */
class ThreadSamples {

  static CompletableFuture<Optional<String>> contextExecutor(
      ExecutorService pool, Orders orders, long id) {
    // tag::context-executor[]
    // An executor of the application's own: each task runs in its submitter's context.
    ExecutorService executor =
        ContextExecutorService.wrap(pool, ContextSnapshotFactory.builder().build());
    CompletableFuture<Optional<String>> customer =
        CompletableFuture.supplyAsync(() -> orders.customer(id), executor); // sees the writes
    // end::context-executor[]
    return customer;
  }

  static CompletableFuture<Void> snapshot(Orders orders, long id, Consumer<String> audit) {
    // tag::snapshot[]
    // One task on any executor, the common pool too: the context is captured here.
    Runnable task =
        ContextSnapshotFactory.builder()
            .build()
            .captureAll()
            .wrap(() -> orders.customer(id).ifPresent(audit));
    CompletableFuture<Void> done = CompletableFuture.runAsync(task);
    // end::snapshot[]
    return done;
  }

  static Mono<Optional<String>> reactor(Orders orders, long id, ConsistencyContext context) {
    // tag::reactor[]
    // Once, at start-up; a Boot application sets spring.reactor.context-propagation=auto instead.
    Hooks.enableAutomaticContextPropagation();
    Mono<Optional<String>> customer =
        Mono.just(id)
            .publishOn(Schedulers.boundedElastic()) // a blocking read, off the caller's thread
            .map(orders::customer) // in the context written below
            .contextWrite(Context.of(ConsistencyContextAccessor.KEY, context));
    // end::reactor[]
    return customer;
  }

  // tag::task-decorator[]
  // Boot's executors then carry every registered thread local, the consistency context too,
  // and the starter's own task decorator steps aside.
  @Bean
  ContextPropagatingTaskDecorator contextPropagatingTaskDecorator() {
    return new ContextPropagatingTaskDecorator();
  }
  // end::task-decorator[]
}

package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.GtidSet;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * With Reactor's automatic context propagation, operators that run on another scheduler's thread
 * see the consistency context of the subscriber's Reactor {@code Context}, under {@link
 * ConsistencyContextAccessor#KEY}, and a blocking subscriber's thread puts its own there.
 */
class ReactorContextPropagationTests {

  private static final GtidSet A = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet B = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-3");

  private final Scheduler single = Schedulers.newSingle("tidemark-reactor-test");

  @BeforeAll
  static void enable() {
    Hooks.enableAutomaticContextPropagation();
  }

  @AfterAll
  static void disable() {
    Hooks.disableAutomaticContextPropagation();
  }

  @AfterEach
  void dispose() {
    single.dispose();
  }

  @Test
  void contextWriteCarriesTheContextToBoundedElasticAndTheReadsWritesBack() {
    ConsistencyContext context = ConsistencyContext.create(A, null);

    String seen =
        Mono.just("read")
            .publishOn(Schedulers.boundedElastic())
            .map(
                step -> {
                  ConsistencyContext bound = ConsistencyContext.currentOrNull();
                  if (bound == null) {
                    return step + " without context";
                  }
                  bound.merge(B); // a write of the step
                  return step + (bound == context ? " in context" : " in another context");
                })
            .contextWrite(reactor.util.context.Context.of(ConsistencyContextAccessor.KEY, context))
            .block(Duration.ofSeconds(10));

    assertThat(seen).isEqualTo("read in context");
    assertThat(context.gtids()).isEqualTo(A.union(B));
    assertThat(ConsistencyContext.currentOrNull()).as("the subscriber's thread").isNull();
  }

  @Test
  void aBlockingSubscriberCarriesItsBoundContextIntoTheChain() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ConsistencyContext seen =
          Mono.just(1)
              .publishOn(Schedulers.boundedElastic())
              .map(i -> contextOrNone())
              .block(Duration.ofSeconds(10));

      assertThat(seen).isSameAs(binding.context());
    }
  }

  @Test
  void theSchedulersThreadKeepsNoContextAfterTheChain() {
    ConsistencyContext context = ConsistencyContext.create(A, null);

    ConsistencyContext during =
        Mono.just(1)
            .publishOn(single)
            .map(i -> contextOrNone())
            .contextWrite(reactor.util.context.Context.of(ConsistencyContextAccessor.KEY, context))
            .block(Duration.ofSeconds(10));
    ConsistencyContext after =
        Mono.fromCallable(ReactorContextPropagationTests::contextOrNone)
            .subscribeOn(single)
            .block(Duration.ofSeconds(10));

    assertThat(during).isSameAs(context);
    assertThat(after).isSameAs(NONE);
  }

  /** Stands for no context: Reactor's operators do not take null. */
  private static final ConsistencyContext NONE = ConsistencyContext.create(GtidSet.EMPTY, null);

  private static ConsistencyContext contextOrNone() {
    ConsistencyContext bound = ConsistencyContext.currentOrNull();
    return bound != null ? bound : NONE;
  }
}

package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The context crosses threads by io.micrometer:context-propagation, found as a service: the task
 * sees the submitter's context, and the worker gets back what it had bound before.
 */
class ConsistencyContextAccessorTests {

  private static final GtidSet A = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet B = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-3");

  @RegisterExtension final TestThreads threads = TestThreads.single();
  private final ExecutorService worker = threads.executor();

  private final ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder().build();

  @Test
  void theRegistryFindsTheAccessorAsAService() {
    assertThat(ContextRegistry.getInstance().getThreadLocalAccessors())
        .filteredOn(accessor -> ConsistencyContextAccessor.KEY.equals(accessor.key()))
        .singleElement()
        .isInstanceOf(ConsistencyContextAccessor.class);
  }

  @Test
  void contextExecutorServiceRunsTasksInTheSubmittersContextAndUnbindsAfter() throws Exception {
    Deadline deadline = Deadline.after(Duration.ofMinutes(1), Ticker.systemTicker());
    ExecutorService carrying = ContextExecutorService.wrap(worker, snapshots);
    try (ConsistencyContext.Binding binding = ConsistencyContext.create(A, deadline).attach()) {
      ConsistencyContext seen =
          carrying
              .submit(
                  () -> {
                    ConsistencyContext bound = ConsistencyContext.currentOrNull();
                    if (bound != null) {
                      bound.merge(B); // a write of the task
                    }
                    return bound;
                  })
              .get(10, TimeUnit.SECONDS);

      assertThat(seen).as("the submitter's context, shared").isSameAs(binding.context());
      assertThat(seen.deadline()).isSameAs(deadline);
      assertThat(binding.context().gtids()).isEqualTo(A.union(B));
    }
    assertThat(onWorker(ConsistencyContext::currentOrNull))
        .as("left on the pooled thread")
        .isNull();
  }

  @Test
  void snapshotCarriesTheContextIntoCompletableFutures() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      AtomicReference<ConsistencyContext> ran = new AtomicReference<>();
      CompletableFuture.runAsync(
              snapshots.captureAll().wrap(() -> ran.set(ConsistencyContext.currentOrNull())),
              worker)
          .get(10, TimeUnit.SECONDS);

      ConsistencyContext supplied =
          CompletableFuture.supplyAsync(
                  ConsistencyContext::currentOrNull, snapshots.captureAll().wrapExecutor(worker))
              .get(10, TimeUnit.SECONDS);

      assertThat(ran.get()).isSameAs(binding.context());
      assertThat(supplied).isSameAs(binding.context());
    }
    assertThat(onWorker(ConsistencyContext::currentOrNull)).isNull();
  }

  @Test
  void appliedSnapshotRestoresTheWorkersOwnContextEvenWhenTheTaskFails() throws Exception {
    ConsistencyContext workersOwn = onWorker(ConsistencyContext::current);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ContextSnapshot snapshot = snapshots.captureAll();
      Callable<Object> failing =
          () -> {
            throw new IllegalStateException(
                "boom in " + (ConsistencyContext.currentOrNull() == binding.context()));
          };

      assertThatThrownBy(() -> onWorker(snapshot.wrap(failing)))
          .isInstanceOf(ExecutionException.class)
          .hasRootCauseMessage("boom in true");
    }
    assertThat(onWorker(ConsistencyContext::currentOrNull)).isSameAs(workersOwn);
  }

  @Test
  void aScopeOpenedInTheTaskClosesBackToTheCarriedContext() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ContextSnapshot snapshot = snapshots.captureAll();
      ConsistencyContext[] seen =
          onWorker(
              snapshot.wrap(
                  () -> {
                    ConsistencyContext carried = ConsistencyContext.currentOrNull();
                    try (ConsistencyContext.Binding inner = ConsistencyContext.open(B)) {
                      assertThat(ConsistencyContext.currentOrNull()).isSameAs(inner.context());
                    }
                    return new ConsistencyContext[] {carried, ConsistencyContext.currentOrNull()};
                  }));

      assertThat(seen).containsExactly(binding.context(), binding.context());
      assertThat(binding.context().gtids()).isEqualTo(A);
    }
    assertThat(onWorker(ConsistencyContext::currentOrNull)).isNull();
  }

  @Test
  void capturingWithoutAContextBindsNoneAndClearMissingHidesTheWorkersOwn() throws Exception {
    ConsistencyContext workersOwn = onWorker(ConsistencyContext::current);

    ContextSnapshot nothing = snapshots.captureAll();
    assertThat(ConsistencyContext.currentOrNull()).as("capture binds nothing").isNull();
    ContextSnapshot cleared =
        ContextSnapshotFactory.builder().clearMissing(true).build().captureAll();

    assertThat(onWorker(nothing.wrap(ConsistencyContext::currentOrNull))).isSameAs(workersOwn);
    assertThat(onWorker(cleared.wrap(ConsistencyContext::currentOrNull))).isNull();
    assertThat(onWorker(ConsistencyContext::currentOrNull)).isSameAs(workersOwn);
  }

  @Test
  void theAccessorSetsAndRestoresExactlyWhatItIsGiven() {
    ThreadLocalAccessor<ConsistencyContext> accessor = new ConsistencyContextAccessor();
    ConsistencyContext first = ConsistencyContext.create(A, null);
    ConsistencyContext second = ConsistencyContext.create(B, null);
    try {
      assertThat(accessor.getValue()).isNull();
      accessor.setValue(first);
      assertThat(ConsistencyContext.currentOrNull()).isSameAs(first);
      accessor.setValue(second);
      accessor.restore(first);
      assertThat(accessor.getValue()).isSameAs(first);
      accessor.setValue();
      assertThat(ConsistencyContext.currentOrNull()).isNull();
      accessor.setValue(second);
      accessor.restore();
      assertThat(ConsistencyContext.currentOrNull()).isNull();
    } finally {
      accessor.restore();
    }
  }

  private <T> T onWorker(Callable<T> task)
      throws InterruptedException, ExecutionException, TimeoutException {
    return worker.submit(task).get(10, TimeUnit.SECONDS);
  }
}

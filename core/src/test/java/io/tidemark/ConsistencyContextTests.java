package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConsistencyContextTests {

  private static final GtidSet A = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet B = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-3");

  @RegisterExtension final TestThreads threads = TestThreads.single();
  private final ExecutorService worker = threads.executor();

  @Test
  void bindsAScopeUntilItClosesThenRestoresThePreviousBinding() {
    assertThat(ConsistencyContext.currentOrNull()).isNull();
    try (ConsistencyContext.Binding outer = ConsistencyContext.open(A)) {
      assertThat(ConsistencyContext.current()).isSameAs(outer.context());
      assertThat(outer.context().gtids()).isEqualTo(A);

      try (ConsistencyContext.Binding inner = ConsistencyContext.open()) {
        assertThat(ConsistencyContext.current()).isSameAs(inner.context());
        assertThat(inner.context().gtids()).isEqualTo(GtidSet.EMPTY);
      }

      assertThat(ConsistencyContext.current()).isSameAs(outer.context());
    }
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void attachRebindsAnExistingContextAndRestoresWhatWasBound() {
    try (ConsistencyContext.Binding first = ConsistencyContext.open(A)) {
      ConsistencyContext other;
      try (ConsistencyContext.Binding second = ConsistencyContext.open(B)) {
        other = second.context();
      }

      try (ConsistencyContext.Binding again = other.attach()) {
        assertThat(ConsistencyContext.current()).isSameAs(other).isSameAs(again.context());
      }

      assertThat(ConsistencyContext.current()).isSameAs(first.context());
    }
  }

  @Test
  void mergesByUnionAndNeverShrinks() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ConsistencyContext context = binding.context();

      context.merge(B);
      context.merge(GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:2-3"));
      context.merge(GtidSet.EMPTY);

      assertThat(context.gtids()).isEqualTo(A.union(B));
      context.merge(GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:6"));
      assertThat(context.gtids())
          .isEqualTo(GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-6").union(B));
    }
  }

  @Test
  void whatAReadsServerWasSeenToExecuteLaterIsRequiredButNotReflectedUntilAReadWaitsForIt() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ConsistencyContext context = binding.context();
      GtidSet c = GtidSet.parse("cccccccc-cccc-cccc-cccc-cccccccccccc:1-2");

      context.observed(B);
      assertThat(context.gtids()).isEqualTo(A.union(B));
      assertThat(context.reflected()).as("the value read may predate B").isEqualTo(A);

      context.merge(c);
      assertThat(context.reflected()).as("a write captured is reflected").isEqualTo(A.union(c));

      context.waitedFor(context.gtids());
      assertThat(context.reflected()).isEqualTo(context.gtids());

      context.observed(GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:4"));
      context.forgetLost(A);
      assertThat(context.gtids())
          .isEqualTo(B.union(c).union(GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:4")));
      assertThat(context.reflected()).isEqualTo(B.union(c));
    }
  }

  @Test
  void keepsEveryConcurrentMerge() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ConsistencyContext context = binding.context();
      List<Future<?>> merges = new ArrayList<>();
      for (int gno = 1; gno <= 200; gno++) {
        GtidSet one = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:" + gno);
        merges.add(pool.submit(() -> context.merge(one)));
      }
      for (Future<?> merge : merges) {
        merge.get(10, TimeUnit.SECONDS);
      }

      assertThat(context.gtids())
          .isEqualTo(GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-200"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void keepsTheFirstReasonItWasMarkedDirtyFor() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ConsistencyContext context = binding.context();
      assertThat(context.isDirty()).isFalse();
      assertThat(context.dirtyBecause()).isNull();

      context.markDirty("first write not captured");
      context.markDirty("second write not captured");
      context.merge(B);

      assertThat(context.isDirty()).isTrue();
      assertThat(context.dirtyBecause()).isEqualTo("first write not captured");
      assertThat(context.gtids()).isEqualTo(A.union(B));
    }
  }

  @Test
  void wrappedRunnableCarriesTheContextToAnotherThreadAndUnbindsAfter() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      ConsistencyContext[] seen = new ConsistencyContext[1];

      worker
          .submit(binding.context().wrap(() -> seen[0] = ConsistencyContext.currentOrNull()))
          .get(10, TimeUnit.SECONDS);

      assertThat(seen[0]).isSameAs(binding.context());
      assertThat(onWorker(ConsistencyContext::currentOrNull)).isNull();
    }
  }

  @Test
  void wrappedCallableCarriesTheContextAndWritesMergeIntoIt() throws Exception {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      Callable<GtidSet> task =
          () -> {
            ConsistencyContext.current().merge(B);
            return ConsistencyContext.current().gtids();
          };

      GtidSet seen = onWorker(binding.context().wrap(task));

      assertThat(seen).isEqualTo(A.union(B));
      assertThat(binding.context().gtids()).isEqualTo(A.union(B));
      assertThat(onWorker(ConsistencyContext::currentOrNull)).isNull();
    }
  }

  @Test
  void wrappedTaskRestoresTheWorkersOwnBindingEvenWhenItFails() throws Exception {
    ConsistencyContext workersOwn = onWorker(ConsistencyContext::current);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(A)) {
      Callable<Object> failing =
          () -> {
            throw new IllegalStateException("boom");
          };

      assertThatThrownBy(() -> onWorker(binding.context().wrap(failing)))
          .isInstanceOf(ExecutionException.class)
          .hasRootCauseMessage("boom");

      assertThat(onWorker(ConsistencyContext::currentOrNull)).isSameAs(workersOwn);
    }
  }

  @Test
  void refusesToCloseAScopeOnAnotherThread() throws Exception {
    ConsistencyContext.Binding binding = ConsistencyContext.open(A);
    try {
      Future<?> closing = worker.submit(binding::close);

      assertThatThrownBy(() -> closing.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(IllegalStateException.class);
      assertThat(ConsistencyContext.currentOrNull()).isSameAs(binding.context());
    } finally {
      binding.close();
    }
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void currentBindsAContextWhenNoScopeIsOpen() throws Exception {
    Object[] seen =
        onWorker(
            () -> {
              Object before = ConsistencyContext.currentOrNull();
              ConsistencyContext bound = ConsistencyContext.current();
              return new Object[] {
                before, bound, ConsistencyContext.current(), ConsistencyContext.currentOrNull()
              };
            });

    assertThat(seen[0]).isNull();
    assertThat(seen[1]).isNotNull().isSameAs(seen[2]).isSameAs(seen[3]);
    assertThat(((ConsistencyContext) seen[1]).gtids()).isEqualTo(GtidSet.EMPTY);
  }

  private <T> T onWorker(Callable<T> task)
      throws InterruptedException, ExecutionException, TimeoutException {
    return worker.submit(task).get(10, TimeUnit.SECONDS);
  }
}

package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test's other threads, as a {@code @RegisterExtension} field: after each test the executor is
 * shut down, and the test fails if a thread it ran has not ended within 10 s.
 */
public final class TestThreads implements AfterEachCallback {

  private final ExecutorService executor;

  private TestThreads(ExecutorService executor) {
    this.executor = executor;
  }

  /** One other thread. */
  public static TestThreads single() {
    return new TestThreads(Executors.newSingleThreadExecutor());
  }

  /** As many other threads as the test has tasks running at once. */
  public static TestThreads cached() {
    return new TestThreads(Executors.newCachedThreadPool());
  }

  public ExecutorService executor() {
    return executor;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    executor.shutdownNow();
    assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }
}

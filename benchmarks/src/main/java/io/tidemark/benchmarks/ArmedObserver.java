package io.tidemark.benchmarks;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * A {@link WriteObserver} whose look for the write runs beside the measured thread, on a daemon
 * thread of its own, one armed look at a time; the look answers with the {@link System#nanoTime} at
 * which it saw the write.
 */
abstract class ArmedObserver implements WriteObserver {

  private final ExecutorService thread;
  private @Nullable Future<Long> pending;

  ArmedObserver(String threadName) {
    thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts {@code look} as the armed one; its future tells whether it ended early. */
  final Future<Long> start(Callable<Long> look) {
    Future<Long> started = thread.submit(look);
    pending = started;
    return started;
  }

  /** When the armed look saw the write, within 30 s. */
  @Override
  public final long visibleAt() {
    if (pending == null) {
      throw new IllegalStateException("not armed");
    }
    return BenchCluster.done(pending, "the observer failed");
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}

package io.tidemark.demo;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** An action done over and over on a thread of its own, a period apart, until closed. */
final class RepeatedFault implements AutoCloseable {

  private final Thread thread;
  private volatile boolean running = true;

  private RepeatedFault(Runnable action, Duration period) {
    this.thread =
        new Thread(
            () -> {
              while (running) {
                action.run();
                LockSupport.parkNanos(period.toNanos());
              }
            },
            "repeated-fault");
    this.thread.setDaemon(true);
  }

  /** Starts doing {@code action} every {@code period}, the first time now. */
  static RepeatedFault every(Duration period, Runnable action) {
    RepeatedFault fault = new RepeatedFault(action, period);
    fault.thread.start();
    return fault;
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.tidemark.demo;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** An action done over and over on a daemon thread of its own, a pause apart, until closed. */
final class Repeated implements AutoCloseable {

  private final Thread thread;
  private volatile boolean running = true;

  private Repeated(Runnable action, Duration pause, String name) {
    this.thread =
        new Thread(
            () -> {
              while (running) {
                action.run();
                LockSupport.parkNanos(pause.toNanos());
              }
            },
            name);
    this.thread.setDaemon(true);
  }

  /** Starts doing {@code action} now, then again {@code pause} after each time it ends. */
  static Repeated every(Duration pause, String name, Runnable action) {
    Repeated repeated = new Repeated(action, pause, name);
    repeated.thread.start();
    return repeated;
  }

  /** Stops after the action under way, waiting for it. */
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

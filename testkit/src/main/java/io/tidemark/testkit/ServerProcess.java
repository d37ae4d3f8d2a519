package io.tidemark.testkit;

/** A database server a node runs on: a local process, or a container of a Docker engine. */
public interface ServerProcess {

  /** The loopback port it listens on; the same across a kill and restart. */
  int port();

  /** Waits until it accepts connections; fails with its log when it dies or stalls. */
  void awaitReady(String jdbcUrl);

  /** Whether it runs (it may be frozen). */
  boolean isAlive();

  /** Suspends it: connections hang, nothing answers. */
  void freeze();

  /** Resumes it after {@link #freeze()}. */
  void thaw();

  /** Kills it at once, like a crash, and returns once it is gone; its data stays. */
  void kill();
}

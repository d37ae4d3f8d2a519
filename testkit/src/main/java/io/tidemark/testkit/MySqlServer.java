package io.tidemark.testkit;

import java.nio.file.Path;

/** Where a node's {@code mysqld} runs: a local process, or a container of a Docker engine. */
interface MySqlServer {

  /** The loopback port it listens on; the same across a kill and restart. */
  int port();

  /** Starts it without waiting; {@code readOnly} starts it super-read-only. */
  void launch(boolean readOnly);

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

  /** Removes it for good, data included. */
  void remove();

  /**
   * Its data folder on this machine.
   *
   * @throws TestkitException when the data is not in a folder of this machine (a container's)
   */
  Path dataDirectory();
}

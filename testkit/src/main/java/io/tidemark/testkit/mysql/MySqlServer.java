package io.tidemark.testkit.mysql;

import io.tidemark.testkit.ServerProcess;
import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;

/** Where a node's {@code mysqld} runs: a local process, or a container of a Docker engine. */
interface MySqlServer extends ServerProcess {

  /** Starts it without waiting; {@code readOnly} starts it super-read-only. */
  void launch(boolean readOnly);

  /** Removes it for good, data included. */
  void remove();

  /**
   * Its data folder on this machine.
   *
   * @throws TestkitException when the data is not in a folder of this machine (a container's)
   */
  Path dataDirectory();
}

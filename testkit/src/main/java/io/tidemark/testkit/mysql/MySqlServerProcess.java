package io.tidemark.testkit.mysql;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.DaemonProcess;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One {@code mysqld} process: its options, data folder and start. */
final class MySqlServerProcess extends DaemonProcess implements MySqlServer {

  static final String USER = "root";
  static final String REPLICATION_USER = "repl";
  static final String REPLICATION_PASSWORD = "tidemark-repl";

  private final MySqlBinaries binaries;
  private final int serverId;

  MySqlServerProcess(MySqlBinaries binaries, Path home, int port, int serverId) {
    super("mysqld", home, port);
    this.binaries = binaries;
    this.serverId = serverId;
  }

  @Override
  public void launch(boolean readOnly) {
    Path home = home();
    try {
      // A killed server leaves its temporary files, and a replica's applier refuses to start
      // while its SQL_LOAD file from the earlier run is still there.
      FileTrees.deleteRecursively(home.resolve("tmp"));
      Files.createDirectories(home.resolve("tmp"));
      Files.createDirectories(home.resolve("files"));
    } catch (IOException e) {
      throw new TestkitException("cannot prepare the folders of mysqld on port " + port(), e);
    }
    List<String> command = new ArrayList<>();
    command.add(binaries.mysqld().toString());
    command.add("--no-defaults");
    command.addAll(DataDirectoryTemplate.storageOptions(binaries));
    command.add("--basedir=" + binaries.basedir());
    command.add("--datadir=" + home.resolve("data"));
    command.add("--tmpdir=" + home.resolve("tmp"));
    command.add("--secure-file-priv=" + home.resolve("files"));
    command.add("--socket=" + home.resolve("mysqld.sock"));
    command.add("--pid-file=" + pidFile());
    command.add("--log-error=" + errorLog());
    command.addAll(serverOptions(port(), serverId, readOnly));
    if (Commands.RUNNING_AS_ROOT) {
      command.add("--user=root");
    }
    start(command);
  }

  /**
   * The options of a testkit server wherever it runs: loopback port, GTID replication, fast and
   * throwaway storage.
   */
  static List<String> serverOptions(int port, int serverId, boolean readOnly) {
    List<String> options = new ArrayList<>();
    options.add("--port=" + port);
    options.add("--bind-address=127.0.0.1");
    options.add("--mysqlx=OFF");
    options.add("--skip-name-resolve");
    options.add("--server-id=" + serverId);
    options.add("--report-host=127.0.0.1");
    options.add("--report-port=" + port);
    options.add("--log-bin=binlog");
    options.add("--relay-log=relay");
    options.add("--relay-log-recovery=ON");
    options.add("--gtid-mode=ON");
    options.add("--enforce-gtid-consistency=ON");
    options.add("--max-connections=1000");
    // Throwaway servers: durability on a crash of the machine is not needed, fast commits are.
    options.add("--innodb-flush-log-at-trx-commit=2");
    options.add("--sync-binlog=0");
    options.add("--innodb-buffer-pool-size=64M");
    options.add("--performance-schema=ON");
    if (readOnly) {
      options.add("--read-only=ON");
      options.add("--super-read-only=ON");
    }
    return options;
  }

  @Override
  public Path dataDirectory() {
    return home().resolve("data");
  }

  /** The topology deletes the data folders together. */
  @Override
  public void remove() {
    kill();
  }
}

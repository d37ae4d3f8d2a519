package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.DaemonProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** One {@code mariadbd} process: its data folder, options and start. */
final class MariaDbServerProcess extends DaemonProcess {

  static final String USER = "root";
  static final String REPLICATION_USER = "repl";
  static final String REPLICATION_PASSWORD = "tidemark-repl";

  private final MariaDbBinaries binaries;
  private final int serverId;

  MariaDbServerProcess(MariaDbBinaries binaries, Path home, int port, int serverId) {
    super("mariadbd", home, port);
    this.binaries = binaries;
    this.serverId = serverId;
  }

  /** Creates the data folder with its system tables; {@code root} signs in without a password. */
  void initialize() {
    List<String> command = new ArrayList<>();
    command.add(binaries.installDb().toString());
    command.add("--no-defaults");
    command.add("--basedir=" + binaries.basedir());
    command.add("--datadir=" + home().resolve("data"));
    command.add("--auth-root-authentication-method=normal");
    command.add("--skip-test-db");
    if (Commands.RUNNING_AS_ROOT) {
      command.add("--user=root");
    }
    Commands.run(command, Duration.ofSeconds(120));
  }

  /** Starts it without waiting; a replica {@code read_only}. */
  void launch(boolean readOnly) {
    List<String> command = new ArrayList<>();
    command.add(binaries.mariadbd().toString());
    command.add("--no-defaults");
    command.add("--basedir=" + binaries.basedir());
    command.add("--lc-messages-dir=" + binaries.basedir().resolve("share/mysql"));
    command.add("--datadir=" + home().resolve("data"));
    command.add("--socket=" + home().resolve("mariadbd.sock"));
    command.add("--pid-file=" + pidFile());
    command.add("--log-error=" + errorLog());
    command.add("--port=" + port());
    command.add("--bind-address=127.0.0.1");
    command.add("--skip-name-resolve");
    command.add("--server-id=" + serverId);
    command.add("--log-bin=binlog");
    command.add("--relay-log=relay");
    command.add("--log-slave-updates=ON");
    command.add("--gtid-strict-mode=ON");
    command.add("--max-connections=1000");
    // Throwaway servers: durability on a crash of the machine is not needed, fast commits are.
    command.add("--innodb-flush-log-at-trx-commit=2");
    command.add("--sync-binlog=0");
    command.add("--innodb-buffer-pool-size=64M");
    if (readOnly) {
      command.add("--read-only=ON");
    }
    if (Commands.RUNNING_AS_ROOT) {
      command.add("--user=root");
    }
    start(command);
  }
}

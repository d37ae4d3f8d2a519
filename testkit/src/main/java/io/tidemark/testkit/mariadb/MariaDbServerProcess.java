package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.DaemonProcess;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One {@code mariadbd} process: its data folder, options and start. */
final class MariaDbServerProcess extends DaemonProcess {

  static final String USER = "root";
  static final String REPLICATION_USER = "repl";
  static final String REPLICATION_PASSWORD = "tidemark-repl";

  private static final Duration BOOTSTRAP_TIMEOUT = Duration.ofSeconds(120);

  private final MariaDbBinaries binaries;
  private final int serverId;

  MariaDbServerProcess(MariaDbBinaries binaries, Path home, int port, int serverId) {
    super("mariadbd", home, port);
    this.binaries = binaries;
    this.serverId = serverId;
  }

  /**
   * Creates the data folder with its system tables as {@code mariadb-install-db} does, by the
   * server itself: {@code mariadbd --bootstrap} runs the SQL of its share folder; {@code root}
   * signs in without a password. The same for Debian's server and for a wrapper of an unpacked one,
   * which {@code mariadb-install-db} (a shell script that starts {@code basedir/sbin/mariadbd} and
   * the client's {@code my_print_defaults} directly) cannot run. The server's output goes to its
   * error log.
   */
  void initialize() {
    Path sql = home().resolve("bootstrap.sql");
    try {
      Files.createDirectories(home().resolve("data"));
      Files.createDirectories(home().resolve("tmp"));
      try (OutputStream out = Files.newOutputStream(sql)) {
        // mariadb-install-db --auth-root-authentication-method=normal: no unix_socket for root.
        out.write(
            "CREATE DATABASE IF NOT EXISTS mysql;\nUSE mysql;\nSET @auth_root_socket = NULL;\n"
                .getBytes(StandardCharsets.UTF_8));
        for (Path file : binaries.systemTablesSql()) {
          Files.copy(file, out);
        }
      }
      List<String> command = new ArrayList<>();
      command.add(binaries.mariadbd().toString());
      command.add("--no-defaults");
      command.add("--bootstrap");
      command.add("--basedir=" + binaries.basedir());
      command.add("--lc-messages-dir=" + binaries.share());
      command.add("--datadir=" + home().resolve("data"));
      command.add("--tmpdir=" + home().resolve("tmp"));
      // What mariadb-install-db adds: no warnings, every engine allowed, room for the help tables.
      command.add("--log-warnings=0");
      command.add("--enforce-storage-engine=");
      command.add("--max-allowed-packet=8M");
      command.add("--net-buffer-length=16K");
      if (Commands.RUNNING_AS_ROOT) {
        command.add("--user=root");
      }
      Process bootstrap =
          new ProcessBuilder(command)
              .redirectInput(Redirect.from(sql.toFile()))
              .redirectOutput(Redirect.appendTo(errorLog().toFile()))
              .redirectErrorStream(true)
              .start();
      if (!bootstrap.waitFor(BOOTSTRAP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        bootstrap.destroyForcibly();
        throw new TestkitException(
            "mariadbd --bootstrap took longer than " + BOOTSTRAP_TIMEOUT + logTail());
      }
      if (bootstrap.exitValue() != 0) {
        throw new TestkitException(
            "mariadbd --bootstrap failed with exit " + bootstrap.exitValue() + logTail());
      }
      Files.delete(sql);
    } catch (IOException e) {
      throw new TestkitException("cannot make the data folder in " + home(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while making the data folder in " + home(), e);
    }
  }

  /** Starts it without waiting; a replica {@code read_only}. */
  void launch(boolean readOnly) {
    List<String> command = new ArrayList<>();
    command.add(binaries.mariadbd().toString());
    command.add("--no-defaults");
    command.add("--basedir=" + binaries.basedir());
    command.add("--lc-messages-dir=" + binaries.share());
    command.add("--datadir=" + home().resolve("data"));
    // Its own temporary tables' folder: a shared /tmp is cleaned by others.
    command.add("--tmpdir=" + home().resolve("tmp"));
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

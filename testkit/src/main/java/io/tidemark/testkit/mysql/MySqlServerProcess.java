package io.tidemark.testkit.mysql;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.TestkitException;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** One {@code mysqld} process: its options, data folder, start, signals and stop. */
final class MySqlServerProcess implements MySqlServer {

  static final String USER = "root";
  static final String REPLICATION_USER = "repl";
  static final String REPLICATION_PASSWORD = "tidemark-repl";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final MySqlBinaries binaries;
  private final Path home;
  private final int port;
  private final int serverId;
  private @Nullable Process process;

  MySqlServerProcess(MySqlBinaries binaries, Path home, int port, int serverId) {
    this.binaries = binaries;
    this.home = home;
    this.port = port;
    this.serverId = serverId;
  }

  @Override
  public int port() {
    return port;
  }

  Path errorLog() {
    return home.resolve("mysqld.err");
  }

  @Override
  public void launch(boolean readOnly) {
    try {
      // A killed server leaves its temporary files, and a replica's applier refuses to start
      // while its SQL_LOAD file from the earlier run is still there.
      FileTrees.deleteRecursively(home.resolve("tmp"));
      Files.createDirectories(home.resolve("tmp"));
      Files.createDirectories(home.resolve("files"));
      List<String> command = new ArrayList<>();
      command.add(binaries.mysqld().toString());
      command.add("--no-defaults");
      command.addAll(DataDirectoryTemplate.storageOptions(binaries));
      command.add("--basedir=" + binaries.basedir());
      command.add("--datadir=" + home.resolve("data"));
      command.add("--tmpdir=" + home.resolve("tmp"));
      command.add("--secure-file-priv=" + home.resolve("files"));
      command.add("--socket=" + home.resolve("mysqld.sock"));
      command.add("--pid-file=" + home.resolve("mysqld.pid"));
      command.add("--log-error=" + errorLog());
      command.addAll(serverOptions(port, serverId, readOnly));
      if (Commands.RUNNING_AS_ROOT) {
        command.add("--user=root");
      }
      process =
          new ProcessBuilder(command)
              .redirectInput(Redirect.from(new File("/dev/null")))
              .redirectOutput(Redirect.appendTo(home.resolve("mysqld.out").toFile()))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new TestkitException("cannot start " + binaries.mysqld(), e);
    }
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
  public void awaitReady(String jdbcUrl) {
    awaitAccepting(
        jdbcUrl,
        "mysqld on port " + port,
        () -> {
          Process p = process;
          if (p == null) {
            return "never launched";
          }
          return p.isAlive() ? null : "exited with " + p.exitValue() + logTail();
        },
        this::logTail,
        START_TIMEOUT);
  }

  /**
   * Waits until a server at {@code jdbcUrl} accepts connections.
   *
   * @param what the server, for messages
   * @param death why it died, or {@code null} while it runs
   * @param log the end of its log, for the message of a server that stalled
   * @throws TestkitException when it dies or is not ready within {@code timeout}
   */
  static void awaitAccepting(
      String jdbcUrl,
      String what,
      Supplier<@Nullable String> death,
      Supplier<String> log,
      Duration timeout) {
    boolean ready =
        Poll.until(
            () -> {
              String died = death.get();
              if (died != null) {
                throw new TestkitException(what + " " + died);
              }
              try (Connection c = DriverManager.getConnection(jdbcUrl, USER, "")) {
                return c.isValid(1);
              } catch (SQLException notYet) {
                return false;
              }
            },
            timeout);
    if (!ready) {
      throw new TestkitException(what + " not ready within " + timeout + log.get());
    }
  }

  @Override
  public Path dataDirectory() {
    return home.resolve("data");
  }

  /** The server's own pid, from its pid file (the launched process may be a wrapper script). */
  long pid() {
    try {
      return Long.parseLong(Files.readString(home.resolve("mysqld.pid")).trim());
    } catch (IOException | NumberFormatException e) {
      throw new TestkitException("mysqld on port " + port + " has no readable pid file", e);
    }
  }

  @Override
  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** SIGCONT. */
  @Override
  public void thaw() {
    Commands.signal(pid(), "CONT");
  }

  /** SIGSTOP; returns once all its threads are stopped. */
  @Override
  public void freeze() {
    Commands.stop(pid());
  }

  /** The topology deletes the data folders together. */
  @Override
  public void remove() {
    kill();
  }

  /** SIGKILL. */
  @Override
  public void kill() {
    if (process == null) {
      return;
    }
    try {
      long pid = pid();
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
    } catch (TestkitException noPidFile) {
      // Never got as far as writing one: the launched process is all there is.
    }
    process.destroyForcibly();
    awaitExit(process, Duration.ofSeconds(30));
    try {
      Files.deleteIfExists(home.resolve("mysqld.pid"));
    } catch (IOException e) {
      throw new TestkitException("cannot remove pid file of mysqld on port " + port, e);
    }
  }

  private static boolean awaitExit(Process p, Duration timeout) {
    try {
      return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while waiting for mysqld to exit", e);
    }
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(errorLog(), StandardCharsets.UTF_8);
      return "\n--- "
          + errorLog()
          + " (tail) ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    } catch (IOException e) {
      return " (no error log at " + errorLog() + ")";
    }
  }
}

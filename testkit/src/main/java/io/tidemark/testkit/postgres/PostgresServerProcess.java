package io.tidemark.testkit.postgres;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ServerProcess;
import io.tidemark.testkit.TestkitException;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One {@code postgres} postmaster and its data folder. PostgreSQL refuses to run as root, so a JVM
 * running as root runs it, and its set-up programs, as the {@code postgres} user.
 */
final class PostgresServerProcess implements ServerProcess {

  static final String USER = "postgres";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final PostgresBinaries binaries;
  private final Path home;
  private final int port;
  private @Nullable Process process;

  PostgresServerProcess(PostgresBinaries binaries, Path home, int port) {
    this.binaries = binaries;
    this.home = home;
    this.port = port;
  }

  @Override
  public int port() {
    return port;
  }

  Path dataDirectory() {
    return home.resolve("data");
  }

  Path log() {
    return home.resolve("postgres.log");
  }

  /** A fresh cluster: superuser {@value #USER}, trust for loopback and replication. */
  void initialize() {
    prepareHome();
    run(
        List.of(
            binaries.program("initdb").toString(),
            "-D",
            dataDirectory().toString(),
            "-U",
            USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync"),
        Duration.ofMinutes(2));
  }

  /** A copy of {@code primary} made as a streaming standby through its own replication slot. */
  void cloneFrom(PostgresServerProcess primary, String slot) {
    prepareHome();
    run(
        List.of(
            binaries.program("pg_basebackup").toString(),
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(primary.port()),
            "-U",
            USER,
            "-D",
            dataDirectory().toString(),
            "-R",
            "-X",
            "stream",
            "-C",
            "-S",
            slot,
            "--no-sync"),
        Duration.ofMinutes(2));
  }

  private void prepareHome() {
    try {
      Files.createDirectories(home);
      if (Commands.RUNNING_AS_ROOT) {
        // The postgres user must reach its folder through ours.
        for (Path p = home; p != null && p.startsWith(ProcessReaper.runRoot()); p = p.getParent()) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Commands.run(List.of("chown", USER + ":", home.toString()), Duration.ofSeconds(10));
      }
    } catch (IOException e) {
      throw new TestkitException("cannot prepare " + home, e);
    }
  }

  /** Starts the postmaster without waiting for it. */
  void launch() {
    List<String> command = asUser();
    command.addAll(
        List.of(
            binaries.program("postgres").toString(),
            "-D",
            dataDirectory().toString(),
            "-p",
            Integer.toString(port),
            "-k",
            home.toString(),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "wal_level=replica",
            "-c",
            "max_wal_senders=10",
            "-c",
            "max_replication_slots=10",
            "-c",
            "hot_standby=on",
            "-c",
            "wal_keep_size=256MB",
            "-c",
            // The benchmarks' 500 readers with a connection each.
            "max_connections=600",
            // Throwaway servers: durability on a crash of the machine is not needed.
            "-c",
            "fsync=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "shared_buffers=32MB",
            // In the data folder, removed with it: a killed server leaves POSIX segments behind.
            "-c",
            "dynamic_shared_memory_type=mmap"));
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(Redirect.from(new File("/dev/null")))
              .redirectOutput(Redirect.appendTo(log().toFile()))
              .redirectErrorStream(true)
              .start();
      Files.writeString(home.resolve("postgres.pid"), Long.toString(process.pid()));
    } catch (IOException e) {
      throw new TestkitException("cannot start " + binaries.program("postgres"), e);
    }
  }

  @Override
  public void awaitReady(String jdbcUrl) {
    Process started = process;
    boolean ready =
        Poll.until(
            () -> {
              if (started == null || !started.isAlive()) {
                throw new TestkitException("postgres on port " + port + " exited" + logTail());
              }
              try (Connection c = DriverManager.getConnection(jdbcUrl, USER, "")) {
                return c.isValid(1);
              } catch (SQLException notYet) {
                return false;
              }
            },
            START_TIMEOUT);
    if (!ready) {
      throw new TestkitException(
          "postgres on port " + port + " not ready within " + START_TIMEOUT + logTail());
    }
  }

  @Override
  public boolean isAlive() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /**
   * Stops the postmaster and every process it started (SIGSTOP): nothing answers. The postmaster
   * first, so that it starts no more; a backend that exits meanwhile is passed over.
   */
  @Override
  public void freeze() {
    Process postmaster = running();
    Commands.stop(postmaster.pid());
    postmaster
        .descendants()
        .forEach(child -> signalIfAlive(child, () -> Commands.stop(child.pid())));
  }

  @Override
  public void thaw() {
    Process postmaster = running();
    postmaster
        .descendants()
        .forEach(child -> signalIfAlive(child, () -> Commands.signal(child.pid(), "CONT")));
    Commands.signal(postmaster.pid(), "CONT");
  }

  private static void signalIfAlive(ProcessHandle child, Runnable signal) {
    try {
      signal.run();
    } catch (TestkitException e) {
      if (child.isAlive()) {
        throw e;
      }
    }
  }

  private Process running() {
    Process p = process;
    if (p == null) {
      throw new IllegalStateException("postgres on port " + port + " is not running");
    }
    return p;
  }

  /** Kills the postmaster and its processes (SIGKILL), like a crash, and waits until it is gone. */
  @Override
  public void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    List<ProcessHandle> children = p.descendants().toList();
    p.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    try {
      p.waitFor(30, TimeUnit.SECONDS);
      for (ProcessHandle child : children) {
        child.onExit().get(30, TimeUnit.SECONDS);
      }
      Files.deleteIfExists(home.resolve("postgres.pid"));
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new TestkitException("postgres on port " + port + " did not die", e);
    }
    process = null;
  }

  private void run(List<String> command, Duration timeout) {
    List<String> full = asUser();
    full.addAll(command);
    Commands.run(full, timeout);
  }

  private static List<String> asUser() {
    List<String> command = new ArrayList<>();
    if (Commands.RUNNING_AS_ROOT) {
      command.addAll(
          List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--"));
    }
    return command;
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log());
      return "\n--- "
          + log()
          + " (tail) ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
    } catch (IOException e) {
      return " (no log at " + log() + ")";
    }
  }
}

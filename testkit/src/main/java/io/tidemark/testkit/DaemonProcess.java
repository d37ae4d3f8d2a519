package io.tidemark.testkit;

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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A MySQL-protocol server run as a local process of this JVM: started from a command, ready once it
 * accepts a connection as {@code root}, signalled through the pid in its pid file (the launched
 * process may be a wrapper script), its error log shown when it dies or stalls.
 */
public abstract class DaemonProcess implements ServerProcess {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final String program;
  private final Path home;
  private final int port;
  private @Nullable Process process;

  /**
   * @param program the server's name, for its files ({@code <program>.pid}, {@code .err}, {@code
   *     .out}) and messages
   * @param home the folder of its files and data
   */
  protected DaemonProcess(String program, Path home, int port) {
    this.program = program;
    this.home = home;
    this.port = port;
  }

  @Override
  public final int port() {
    return port;
  }

  /** The folder of the server's files and data. */
  protected final Path home() {
    return home;
  }

  /** Where the server writes its pid. */
  protected final Path pidFile() {
    return home.resolve(program + ".pid");
  }

  /** Where the server logs its errors. */
  protected final Path errorLog() {
    return home.resolve(program + ".err");
  }

  /** Starts {@code command} without waiting; its output goes to a file beside the error log. */
  protected final void start(List<String> command) {
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(Redirect.from(new File("/dev/null")))
              .redirectOutput(Redirect.appendTo(home.resolve(program + ".out").toFile()))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new TestkitException("cannot start " + command.get(0), e);
    }
  }

  @Override
  public final void awaitReady(String jdbcUrl) {
    awaitAccepting(
        jdbcUrl,
        program + " on port " + port,
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
   * Waits until a server at {@code jdbcUrl} accepts a connection as {@code root}.
   *
   * @param what the server, for messages
   * @param death why it died, or {@code null} while it runs
   * @param log the end of its log, for the message of a server that stalled
   * @throws TestkitException when it dies or is not ready within {@code timeout}
   */
  public static void awaitAccepting(
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
              try (Connection c = DriverManager.getConnection(jdbcUrl, "root", "")) {
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

  /** The server's own pid, from its pid file. */
  public final long pid() {
    try {
      return Long.parseLong(Files.readString(pidFile()).trim());
    } catch (IOException | NumberFormatException e) {
      throw new TestkitException(program + " on port " + port + " has no readable pid file", e);
    }
  }

  @Override
  public final boolean isAlive() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** SIGCONT. */
  @Override
  public final void thaw() {
    Commands.signal(pid(), "CONT");
  }

  /** SIGSTOP; returns once all its threads are stopped. */
  @Override
  public final void freeze() {
    Commands.stop(pid());
  }

  /** SIGKILL. */
  @Override
  public final void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    try {
      long pid = pid();
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
    } catch (TestkitException noPidFile) {
      // Never got as far as writing one: the launched process is all there is.
    }
    p.destroyForcibly();
    try {
      p.waitFor(30, TimeUnit.SECONDS);
      Files.deleteIfExists(pidFile());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while waiting for " + program + " to exit", e);
    } catch (IOException e) {
      throw new TestkitException("cannot remove pid file of " + program + " on port " + port, e);
    }
  }

  /** The last lines of the error log, for a failure's message. */
  public final String logTail() {
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

package io.tidemark.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs short helper commands ({@code kill}, {@code tar}, {@code mysqld --version}). */
public final class Commands {

  /** Whether this JVM runs as root, which server binaries refuse unless told whom to run as. */
  public static final boolean RUNNING_AS_ROOT = "root".equals(System.getProperty("user.name"));

  private Commands() {}

  /**
   * Runs a command to completion within {@code timeout} and returns its output; fails on a non-zero
   * exit or when it takes longer (the process is then killed).
   */
  public static String run(List<String> command, Duration timeout) {
    Path output = null;
    try {
      output = Files.createTempFile("tidemark-command-", ".out");
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new TestkitException("command took longer than " + timeout + ": " + command);
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new TestkitException(
            "command failed with exit " + p.exitValue() + ": " + command + "\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new TestkitException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while running " + command, e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          System.getLogger(Commands.class.getName())
              .log(System.Logger.Level.WARNING, "could not delete " + output, e);
        }
      }
    }
  }

  /**
   * Sends a signal such as {@code STOP}, {@code CONT} or {@code KILL} to a process, with the
   * shell's own {@code kill} (the {@code kill} program is missing from minimal images).
   */
  public static void signal(long pid, String signal) {
    run(List.of("sh", "-c", "kill -" + signal + " " + pid), Duration.ofSeconds(10));
  }

  /**
   * Stops a process (SIGSTOP) and returns once every one of its threads is stopped: the signal is
   * delivered to each thread on its own, and a thread busy on a loaded machine may still answer a
   * client for a moment after {@code kill} returned.
   */
  public static void stop(long pid) {
    signal(pid, "STOP");
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Poll.until(() -> allStopped(tasks), Duration.ofSeconds(5))) {
      throw new TestkitException("process " + pid + " did not stop within 5 s of SIGSTOP");
    }
  }

  private static boolean allStopped(Path tasks) {
    try (Stream<Path> threads = Files.list(tasks)) {
      return threads.allMatch(
          thread -> {
            try {
              String stat = Files.readString(thread.resolve("stat"));
              // The state follows the command name, which is in parentheses and may hold spaces.
              char state = stat.charAt(stat.lastIndexOf(')') + 2);
              // A zombie (an exited child whose stopped parent cannot reap it) runs no more.
              return state == 'T' || state == 't' || state == 'Z' || state == 'X';
            } catch (IOException gone) {
              return true;
            }
          });
    } catch (IOException e) {
      throw new TestkitException("cannot read the threads of " + tasks, e);
    }
  }
}

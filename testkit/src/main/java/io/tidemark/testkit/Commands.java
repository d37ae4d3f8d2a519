package io.tidemark.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs short helper commands ({@code kill}, {@code tar}, {@code mysqld --version}). */
final class Commands {

  private Commands() {}

  /** Runs a command to completion within 60 s and returns its output; fails on non-zero exit. */
  static String run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new TestkitException("command timed out: " + command);
      }
      String text = new String(out, StandardCharsets.UTF_8);
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
    }
  }

  /** Sends a signal such as {@code STOP}, {@code CONT} or {@code KILL} to a process. */
  static void signal(long pid, String signal) {
    run(List.of("kill", "-" + signal, Long.toString(pid)));
  }
}

package io.tidemark.testkit.redis;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.TestkitException;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** {@code redis-server} as a local process, its output appended to a file of its folder. */
final class RedisProcess implements RedisRunner {

  private final Path binary;
  private final Path output;
  private @Nullable Process process;

  RedisProcess(Path binary, Path output) {
    this.binary = binary;
    this.output = output;
  }

  @Override
  public synchronized void start(List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(arguments);
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(Redirect.from(new File("/dev/null")))
              .redirectOutput(Redirect.appendTo(output.toFile()))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new TestkitException("cannot start " + binary, e);
    }
  }

  @Override
  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  @Override
  public synchronized String exitDetail() {
    Process p = process;
    return p == null || p.isAlive() ? "not started" : "exited with " + p.exitValue();
  }

  @Override
  public synchronized void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroyForcibly();
    try {
      p.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while killing redis", e);
    }
    process = null;
  }

  @Override
  public void freeze() {
    Commands.stop(pid());
  }

  @Override
  public void thaw() {
    Commands.signal(pid(), "CONT");
  }

  synchronized long pid() {
    Process p = process;
    if (p == null) {
      throw new IllegalStateException(binary + " is not running");
    }
    return p.pid();
  }

  @Override
  public String describe() {
    return "local processes, " + binary;
  }
}

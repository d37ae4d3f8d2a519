package io.tidemark.testkit.redis;

import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@code redis-server} in a container on the host's network, its folder mounted at the same path,
 * so that the arguments of a local process hold unchanged; a kill removes the container, a start
 * makes a new one.
 */
final class RedisContainer implements RedisRunner {

  private final DockerImageName image;
  private final Path home;
  private @Nullable GenericContainer<?> container;
  private String exit = "not started";

  RedisContainer(String image, Path home) {
    this.image = DockerImageName.parse(image);
    this.home = home;
  }

  @Override
  public synchronized void start(List<String> arguments) {
    GenericContainer<?> next =
        new GenericContainer<>(image)
            .withNetworkMode("host")
            .withFileSystemBind(home.toString(), home.toString(), BindMode.READ_WRITE)
            .withLabel("io.tidemark.testkit", "redis")
            .withCommand(arguments.toArray(String[]::new));
    try {
      next.start();
    } catch (RuntimeException e) {
      throw new TestkitException("cannot start a container of " + image + ": " + e.getMessage(), e);
    }
    container = next;
    ProcessReaper.containerStarted(home, next.getContainerId());
  }

  @Override
  public synchronized boolean isAlive() {
    return container != null && container.isRunning();
  }

  @Override
  public synchronized String exitDetail() {
    GenericContainer<?> c = container;
    if (c == null) {
      return exit;
    }
    List<String> lines = c.getLogs().lines().toList();
    return "exited; its log:\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
  }

  @Override
  public synchronized void kill() {
    GenericContainer<?> c = container;
    if (c != null) {
      c.stop();
      container = null;
      exit = "killed";
      ProcessReaper.containerRemoved(home);
    }
  }

  @Override
  public synchronized void freeze() {
    running().getDockerClient().pauseContainerCmd(running().getContainerId()).exec();
  }

  @Override
  public synchronized void thaw() {
    running().getDockerClient().unpauseContainerCmd(running().getContainerId()).exec();
  }

  private GenericContainer<?> running() {
    GenericContainer<?> c = container;
    if (c == null) {
      throw new IllegalStateException("the container of " + image + " is not running");
    }
    return c;
  }

  @Override
  public String describe() {
    return "containers, image " + image;
  }
}

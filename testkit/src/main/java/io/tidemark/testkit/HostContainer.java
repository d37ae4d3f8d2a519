package io.tidemark.testkit;

import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A server's container on the host's network, so that it listens on a loopback port of this machine
 * like a local process: at most one at a time, named to {@link ProcessReaper} by the server's
 * folder while it exists. A kill removes it; a start makes a new one. A server that runs in
 * containers extends it.
 */
public abstract class HostContainer {

  private final DockerImageName image;
  private final String server;
  private final Path home;
  private @Nullable GenericContainer<?> container;

  /**
   * @param server what messages call the server
   * @param home the server's folder, where the reaper finds the container's id
   */
  protected HostContainer(String image, String server, Path home) {
    this.image = DockerImageName.parse(image);
    this.server = server;
    this.home = home;
  }

  /**
   * Starts a container of the image on the host's network, labelled {@code io.tidemark.testkit =
   * label} and set up by {@code setUp}.
   *
   * @throws IllegalStateException when one runs: kill it first (one that exited is removed)
   * @throws TestkitException when it does not start
   */
  protected final synchronized void startContainer(
      String label, UnaryOperator<GenericContainer<?>> setUp) {
    if (isAlive()) {
      throw new IllegalStateException(server + " runs; kill() it first");
    }
    kill();
    GenericContainer<?> next =
        setUp.apply(
            new GenericContainer<>(image)
                .withNetworkMode("host")
                .withLabel("io.tidemark.testkit", label));
    try {
      next.start();
    } catch (RuntimeException e) {
      throw new TestkitException(
          "cannot start a container of " + image + " for " + server + ": " + e.getMessage(), e);
    }
    container = next;
    ProcessReaper.containerStarted(home, next.getContainerId());
  }

  /** Whether the container exists and runs. */
  public final synchronized boolean isAlive() {
    return container != null && container.isRunning();
  }

  /** Pauses every process of the container (the cgroup freezer). */
  public final synchronized void freeze() {
    GenericContainer<?> c = running();
    c.getDockerClient().pauseContainerCmd(c.getContainerId()).exec();
  }

  /** Resumes what {@link #freeze()} paused. */
  public final synchronized void thaw() {
    GenericContainer<?> c = running();
    c.getDockerClient().unpauseContainerCmd(c.getContainerId()).exec();
  }

  /** Kills the container (SIGKILL) and removes it; the server's folder stays for a restart. */
  public synchronized void kill() {
    GenericContainer<?> c = container;
    if (c != null) {
      c.stop();
      container = null;
      ProcessReaper.containerRemoved(home);
    }
  }

  /** The last {@code count} lines the container logged; none when there is no container. */
  protected final synchronized List<String> logTail(int count) {
    GenericContainer<?> c = container;
    if (c == null) {
      return List.of();
    }
    List<String> lines = c.getLogs().lines().toList();
    return lines.subList(Math.max(0, lines.size() - count), lines.size());
  }

  /** The image the containers run. */
  protected final DockerImageName image() {
    return image;
  }

  private GenericContainer<?> running() {
    GenericContainer<?> c = container;
    if (c == null) {
      throw new IllegalStateException("the container of " + server + " is not running");
    }
    return c;
  }
}

package io.tidemark.testkit.redis;

import io.tidemark.testkit.HostContainer;
import java.nio.file.Path;
import java.util.List;
import org.testcontainers.containers.BindMode;

/**
 * {@code redis-server} in a container on the host's network, its folder mounted at the same path,
 * so that the arguments of a local process hold unchanged; a kill removes the container, a start
 * makes a new one.
 */
final class RedisContainer extends HostContainer implements RedisRunner {

  private final Path home;
  private String exit = "not started";

  RedisContainer(String image, Path home) {
    super(image, "redis-server in " + home, home);
    this.home = home;
  }

  @Override
  public synchronized void start(List<String> arguments) {
    startContainer(
        "redis",
        c ->
            c.withFileSystemBind(home.toString(), home.toString(), BindMode.READ_WRITE)
                .withCommand(arguments.toArray(String[]::new)));
    exit = "exited";
  }

  @Override
  public synchronized String exitDetail() {
    List<String> tail = logTail(20);
    return tail.isEmpty() ? exit : "exited; its log:\n" + String.join("\n", tail);
  }

  @Override
  public synchronized void kill() {
    super.kill();
    exit = "killed";
  }

  @Override
  public String describe() {
    return "containers, image " + image();
  }
}

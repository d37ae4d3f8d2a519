package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * No container outlives the JVM that started it, even one killed with SIGKILL: Ryuk does not run on
 * Podman, so the testkit's watchdog removes them. Runs with the container backend only.
 */
class ContainersReaperIT {

  @Test
  void containersAreRemovedWhenTheJvmIsKilledWithSigkill() throws Exception {
    Process child = ChildJvm.running(ChildMain.class).start();
    String[] parts = ChildJvm.report(child, "containers", "containers ");
    List<String> ids = Arrays.asList(parts).subList(2, parts.length);
    assertThat(ids).hasSize(3).allSatisfy(id -> assertThat(exists(id)).as(id).isTrue());

    child.destroyForcibly().waitFor();

    boolean gone =
        Poll.until(
            () ->
                ids.stream().noneMatch(ContainersReaperIT::exists)
                    && !Files.exists(Path.of(parts[1])),
            Duration.ofSeconds(60));
    assertThat(gone).as("containers %s and folder %s gone", ids, parts[1]).isTrue();
  }

  /** Listed rather than inspected: Podman answers 500, not 404, for one being removed. */
  private static boolean exists(String id) {
    return !DockerClientFactory.instance()
        .client()
        .listContainersCmd()
        .withShowAll(true)
        .withIdFilter(List.of(id))
        .exec()
        .isEmpty();
  }

  /** Starts a topology and Redis in containers, reports their ids, then waits to be killed. */
  public static final class ChildMain {
    public static void main(String[] args) throws Exception {
      MySqlTopology topology = MySqlTopology.builder().backend(Backend.CONTAINERS).start();
      RedisServer.start();
      List<String> ids;
      try (Stream<Path> files = Files.walk(ProcessReaper.runRoot())) {
        ids =
            files
                .filter(f -> f.getFileName().toString().endsWith(".cid"))
                .map(ContainersReaperIT::read)
                .toList();
      }
      System.out.println("containers " + ProcessReaper.runRoot() + " " + String.join(" ", ids));
      System.out.flush();
      System.in.read();
      topology.close();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      throw new TestkitException("cannot read " + file, e);
    }
  }
}

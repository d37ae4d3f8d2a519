package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.ChildJvm;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No server outlives the JVM that started it, however that JVM ends. */
class ProcessReaperIT {

  @Test
  void serversDieWithAJvmKilledWithSigkill() throws Exception {
    Child child = Child.start();
    child.process.destroyForcibly().waitFor();
    child.assertAllGone();
  }

  @Test
  void serversAreStoppedByTheShutdownHookWhenNotClosed() throws Exception {
    Child child = Child.start();
    child.process.getOutputStream().write('\n');
    child.process.getOutputStream().flush();
    assertThat(child.process.waitFor()).isZero();
    child.assertAllGone();
  }

  private record Child(Process process, List<Long> pids, Path folder) {

    static Child start() throws IOException {
      ProcessBuilder builder = ChildJvm.running(ChildMain.class);
      // Pids are of local processes; ContainerReaperIT covers containers.
      builder.environment().put("TIDEMARK_TESTKIT_BACKEND", "processes");
      Process process = builder.start();
      String[] parts = ChildJvm.report(process, "servers", "servers ");
      List<Long> pids = Arrays.stream(parts, 2, parts.length).map(Long::parseLong).toList();
      assertThat(pids).hasSize(3);
      for (long pid : pids) {
        assertThat(ProcessHandle.of(pid)).as("server %d runs", pid).isPresent();
      }
      return new Child(process, pids, Path.of(parts[1]));
    }

    void assertAllGone() {
      boolean gone =
          Poll.until(
              () ->
                  pids.stream().noneMatch(pid -> ProcessHandle.of(pid).isPresent())
                      && !Files.exists(folder),
              Duration.ofSeconds(30));
      assertThat(gone).as("servers %s and folder %s gone", pids, folder).isTrue();
    }
  }

  /** Starts a topology and Redis, reports their pids, then waits for a line and exits. */
  public static final class ChildMain {
    public static void main(String[] args) throws Exception {
      MySqlTopology topology = MySqlTopology.builder().backend(Backend.PROCESSES).start();
      RedisServer redis = RedisServer.start();
      System.out.println(
          "servers "
              + ProcessReaper.runRoot()
              + " "
              + ((MySqlServerProcess) topology.source().process()).pid()
              + " "
              + ((MySqlServerProcess) topology.replica().process()).pid()
              + " "
              + redis.pid());
      System.out.flush();
      // Exits without closing anything once told to; killed before that in the other test.
      System.in.read();
      System.exit(0);
    }
  }
}

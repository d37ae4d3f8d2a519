package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
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
    Child child = Child.start(false);
    child.process.destroyForcibly().waitFor();
    child.assertAllGone();
  }

  @Test
  void serversAreStoppedByTheShutdownHookWhenNotClosed() throws Exception {
    Child child = Child.start(true);
    // Only now, with its servers seen running, may the child exit through its shutdown hook.
    child.process.getOutputStream().write('\n');
    child.process.getOutputStream().flush();
    assertThat(child.process.waitFor()).isZero();
    child.assertAllGone();
  }

  private record Child(Process process, List<Long> pids, Path folder) {

    static Child start(boolean exitWithoutClosing) throws IOException {
      Process process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  ChildMain.class.getName(),
                  Boolean.toString(exitWithoutClosing))
              .redirectError(Redirect.INHERIT)
              .start();
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line).as("child reports its servers").startsWith("servers ");
      String[] parts = line.split(" ");
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

  /** Starts a topology and Redis, reports their pids, then waits for a line to exit or a kill. */
  public static final class ChildMain {
    public static void main(String[] args) throws Exception {
      MySqlTopology topology = MySqlTopology.builder().start();
      RedisServer redis = RedisServer.start();
      System.out.println(
          "servers "
              + ProcessReaper.runRoot()
              + " "
              + topology.source().process().pid()
              + " "
              + topology.replica().process().pid()
              + " "
              + redis.pid());
      System.out.flush();
      // Waits for the parent: exiting at once could stop the servers before it saw them run.
      System.in.read();
      if (Boolean.parseBoolean(args[0])) {
        System.exit(0);
      }
    }
  }
}

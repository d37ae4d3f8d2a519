package io.tidemark.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.tidemark.testkit.ChildJvm;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RabbitServerIT {

  @Test
  void carriesAMessageAndLeavesNoProcessBehindWhenClosed() throws Exception {
    List<Long> pids;
    Path home;
    int epmdPort;
    try (RabbitServer rabbit = RabbitServer.start()) {
      ConnectionFactory factory = new ConnectionFactory();
      factory.setUri(rabbit.uri());
      try (Connection connection = factory.newConnection();
          Channel channel = connection.createChannel()) {
        String queue = channel.queueDeclare().getQueue();
        channel.basicPublish("", queue, null, "hello".getBytes(StandardCharsets.UTF_8));
        GetResponse response = poll(channel, queue);
        assertThat(new String(response.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
      }
      pids = processTree(rabbit);
      assertThat(pids).hasSizeGreaterThanOrEqualTo(2).allMatch(RabbitServerIT::running);
      home = rabbit.home();
      epmdPort = rabbit.epmdPort();
    }
    assertThat(pids).noneMatch(RabbitServerIT::running);
    assertThat(home).doesNotExist();
    assertThat(commandLinesNaming(epmdPort)).as("processes of epmd port %d", epmdPort).isEmpty();
  }

  @Test
  void theBrokerAndItsEpmdDieWithAJvmKilledWithSigkill() throws Exception {
    Process child = ChildJvm.running(ChildMain.class).start();
    String[] parts = ChildJvm.report(child, "broker", "rabbitmq ");
    Path folder = Path.of(parts[1]);
    List<Long> pids = Arrays.stream(parts, 2, parts.length).map(Long::parseLong).toList();
    assertThat(pids).hasSizeGreaterThanOrEqualTo(2).allMatch(RabbitServerIT::running);

    child.destroyForcibly().waitFor();

    boolean gone =
        Poll.until(
            () -> pids.stream().noneMatch(RabbitServerIT::running) && !Files.exists(folder),
            Duration.ofSeconds(30));
    assertThat(gone).as("processes %s and folder %s gone", pids, folder).isTrue();
  }

  /** Starts a broker, reports its run folder and processes, then waits to be killed. */
  public static final class ChildMain {
    public static void main(String[] args) throws Exception {
      RabbitServer rabbit = RabbitServer.start();
      StringBuilder line = new StringBuilder("rabbitmq ").append(ProcessReaper.runRoot());
      processTree(rabbit).forEach(pid -> line.append(' ').append(pid));
      System.out.println(line);
      System.out.flush();
      System.in.read();
      System.exit(0);
    }
  }

  private static GetResponse poll(Channel channel, String queue) throws IOException {
    GetResponse[] got = new GetResponse[1];
    boolean arrived =
        Poll.until(
            () -> {
              try {
                got[0] = channel.basicGet(queue, true);
                return got[0] != null;
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            },
            Duration.ofSeconds(10));
    assertThat(arrived).as("the message arrived").isTrue();
    return got[0];
  }

  /** The broker, its epmd and what the Erlang VM started (port programs, helpers). */
  private static List<Long> processTree(RabbitServer rabbit) {
    List<Long> pids = new ArrayList<>();
    for (ProcessHandle process : rabbit.processes()) {
      pids.add(process.pid());
      process.descendants().forEach(descendant -> pids.add(descendant.pid()));
    }
    return pids;
  }

  /**
   * Whether a process runs; a zombie does not: the children of the Erlang VM are re-parented when
   * it ends, and in some containers nothing reaps them.
   */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException gone) {
      return false;
    }
  }

  private static List<String> commandLinesNaming(int epmdPort) throws IOException {
    String port = Integer.toString(epmdPort);
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      return processes
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .filter(p -> running(Long.parseLong(p.getFileName().toString())))
          .map(RabbitServerIT::commandLine)
          .filter(
              command ->
                  (command.contains("epmd") || command.contains("beam"))
                      && List.of(command.split(" ")).contains(port))
          .toList();
    }
  }

  private static String commandLine(Path process) {
    try {
      return new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (IOException gone) {
      return "";
    }
  }
}

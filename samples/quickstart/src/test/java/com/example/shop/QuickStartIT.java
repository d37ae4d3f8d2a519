package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.junit.TestkitExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start, followed literally against a real MySQL source and replica: the
 * database statements, the packaged application started with the README's commands and properties
 * (only the servers' addresses come from the environment, as Boot reads it), and the {@code curl}
 * session, whose output must be what the README shows. Every block comes from this module's files,
 * which the documentation check compares with the README.
 */
@ExtendWith(TestkitExtension.class)
class QuickStartIT {

  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final String ELIDED = "…";
  private static final String SHOWN_TOKEN = "default=v1.k1.…";

  @Test
  void theCurlSessionSeesTheStaleReadAndItsCure(MySqlTopology topology, @TempDir Path client)
      throws Exception {
    MySqlNode source = topology.source();
    try (Connection c = source.openConnection();
        Statement s = c.createStatement()) {
      for (String statement : region("database.sql", "database")) {
        s.execute(statement.replaceFirst(";$", ""));
      }
    }
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    int port = freePort();
    Path log = client.resolve("application.log");
    Process application = start(topology, port, log);
    try {
      awaitStarted(port, application, log);
      assertThat(Files.readString(log))
          .contains("Tidemark is on: writes go to source, reads under @ReadYourWrites to replica-1")
          .contains("; source MySQL " + source.version() + ", replica-1 MySQL ")
          .contains("the Consistency-Token header and the Consistency-Token-default cookie");
      // The README: "with the replica's applier stopped".
      topology.replica().pauseApplier();
      String last;
      try {
        last = runSession(port, client);
      } finally {
        topology.replica().resumeApplier();
      }
      // "after START REPLICA SQL_THREAD, from replica-1"
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      assertThat(shell(last, client))
          .contains("HTTP/1.1 200")
          .containsPattern("(?m)^Consistency-Read: replica-1; reason=REPLICA_")
          .endsWith("alice");
    } finally {
      application.destroy();
      if (!application.waitFor(20, TimeUnit.SECONDS)) {
        application.destroyForcibly();
      }
    }
  }

  /**
   * Runs each {@code $ } command of the session in a shell in {@code client}, the port it runs on
   * in place of 8080 and the token the first answer carried in place of the one shown, and checks
   * that the lines shown appear in its output in order ({@value #ELIDED} standing for any text).
   * Returns the last command, as it ran.
   */
  private static String runSession(int port, Path client) throws Exception {
    List<String> lines = region("session.console", "session");
    String token = null;
    String command = null;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("$ ")) {
        continue;
      }
      command = lines.get(i).substring(2).replace("localhost:8080", "localhost:" + port);
      if (command.contains(SHOWN_TOKEN)) {
        assertThat(token).as("a token before " + command).isNotNull();
        command = command.replace(SHOWN_TOKEN, token);
      }
      List<String> expected = new ArrayList<>();
      for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("$ "); j++) {
        if (!lines.get(j).isBlank() && !lines.get(j).equals(ELIDED)) {
          expected.add(lines.get(j));
        }
      }
      String output = shell(command, client);
      System.out.printf("$ %s%n%s%n", command, output);
      assertShown(lines.get(i), expected, output);
      Matcher answered = Pattern.compile("(?m)^Consistency-Token: (\\S+)").matcher(output);
      if (token == null && answered.find()) {
        token = answered.group(1);
      }
    }
    assertThat(command).as("a command in the session").isNotNull();
    return command;
  }

  private static void assertShown(String command, List<String> expected, String output) {
    List<String> actual = output.lines().map(String::strip).toList();
    int at = 0;
    for (String shown : expected) {
      Pattern line = shownLine(shown.strip());
      while (at < actual.size() && !line.matcher(actual.get(at)).matches()) {
        at++;
      }
      assertThat(at)
          .as("%s%nshows %s%nbut printed:%n%s", command, shown, output)
          .isLessThan(actual.size());
      at++;
    }
  }

  private static Pattern shownLine(String shown) {
    StringBuilder regex = new StringBuilder();
    for (String part : shown.split(ELIDED, -1)) {
      if (!regex.isEmpty()) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(part));
    }
    return Pattern.compile(regex.toString());
  }

  /**
   * The README's commands that start the application, but {@code ./mvnw package}: the build that
   * runs this test has just packaged it.
   */
  private static Process start(MySqlTopology topology, int port, Path log) throws IOException {
    List<String> commands =
        region("run.sh", "run").stream()
            .filter(command -> !command.startsWith("./mvnw "))
            .toList();
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", "set -e\n" + String.join("\n", commands))
            .directory(MODULE.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> environment = builder.environment();
    environment.put("PATH", javaHome() + "/bin:" + environment.get("PATH"));
    environment.put("SERVER_PORT", String.valueOf(port));
    environment.put("SPRING_DATASOURCE_URL", topology.source().jdbcUrl("shop"));
    environment.put("TIDEMARK_REPLICAS_0_URL", topology.replica().jdbcUrl("shop"));
    return builder.start();
  }

  private static String javaHome() {
    return Path.of(ProcessHandle.current().info().command().orElseThrow())
        .getParent()
        .getParent()
        .toString();
  }

  private static void awaitStarted(int port, Process application, Path log) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      assertThat(application.isAlive())
          .as("the application is running; its log:%n%s", Files.readString(log))
          .isTrue();
      try {
        http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/orders/0"))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        application.waitFor(200, TimeUnit.MILLISECONDS);
      }
    }
    throw new AssertionError("not started within 90 s:\n" + Files.readString(log));
  }

  private static String shell(String command, Path directory) throws Exception {
    Process process =
        new ProcessBuilder("bash", "-c", command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(command + "\n" + output).isZero();
    return output;
  }

  /**
   * The lines between {@code tag::name[]} and {@code end::name[]} of a file of the quick start's test
   * resources, from the class path: the build of the same application on Spring Boot 3.5 runs this
   * test from its own folder.
   */
  static List<String> region(String file, String name) throws IOException {
    List<String> lines;
    try (InputStream in =
        Objects.requireNonNull(QuickStartIT.class.getResourceAsStream("/" + file), file)) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("tag::" + name + "[]")) {
        start = i + 1;
      } else if (lines.get(i).contains("end::" + name + "[]")) {
        return lines.subList(start, i);
      }
    }
    throw new IllegalArgumentException("no region " + name + " in " + file);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

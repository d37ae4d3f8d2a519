package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.shop.BadTokenCorpus.Answer;
import io.tidemark.spring.shop.BadTokenCorpus.Case;
import io.tidemark.spring.shop.BadTokenCorpus.Source;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Sends every entry of the {@link BadTokenCorpus} to a read and a write of the shop over a plain
 * socket, so that the bytes on the wire are exactly the entry's, CR/LF included. One instance
 * rejects bad tokens, one ignores them; a third keeps Tomcat's default header size, so the
 * oversized headers are refused by the container before the filter.
 *
 * <p>Besides the answer, each entry checks that nothing of a bad token reached either server (both
 * general logs, kept in {@code mysql.general_log} for the run) and that a refused write wrote
 * nothing.
 */
@ExtendWith(TestkitExtension.class)
class BadTokenHttpIT {

  private static final AtomicLong ids = new AtomicLong(10_000);
  private static final long EXISTING = 1;
  private static final List<Case> CASES = BadTokenCorpus.cases();

  private static MySqlTopology topology;
  private static String db;
  private static Source source;
  private static ConfigurableApplicationContext rejecting;
  private static ConfigurableApplicationContext ignoring;
  private static ConfigurableApplicationContext defaultHeaderSize;
  private static final List<String[]> logSettings = new ArrayList<>();

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    db = ShopApplication.database(topology, "badtoken");
    topology.source().execute("INSERT INTO `" + db + "`.orders VALUES (1, 'ada', 'NEW', 1)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    for (MySqlNode node : topology.nodes()) {
      logSettings.add(
          new String[] {
            node.queryString("SELECT @@global.general_log"),
            node.queryString("SELECT @@global.log_output")
          });
      node.execute("SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 'ON'");
    }
    String gtids = topology.source().gtidExecuted();
    String uuid = topology.source().serverUuid();
    source = new Source(uuid, lastGno(gtids, uuid));
    String[] common = {"shop.read-timeout=300ms", "server.max-http-request-header-size=2MB"};
    rejecting = ShopApplication.startWeb(topology, db, common);
    ignoring =
        ShopApplication.startWeb(topology, db, concat(common, "tidemark.web.invalid-token=ignore"));
    defaultHeaderSize = ShopApplication.startWeb(topology, db, "shop.read-timeout=300ms");
  }

  @AfterAll
  static void stop() {
    for (ConfigurableApplicationContext context : List.of(rejecting, ignoring, defaultHeaderSize)) {
      if (context != null) {
        context.close();
      }
    }
    for (int i = 0; i < logSettings.size(); i++) {
      String[] settings = logSettings.get(i);
      topology
          .nodes()
          .get(i)
          .execute(
              "SET GLOBAL general_log = " + settings[0],
              "SET GLOBAL log_output = '" + settings[1] + "'");
    }
  }

  static Stream<Case> corpus() {
    return CASES.stream();
  }

  static Stream<Case> oversized() {
    return CASES.stream().filter(BadTokenCorpus::isOversized);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void rejectingInstanceAnswersEachEntryWithItsTypedProblem(Case c) throws IOException {
    String header = c.header().apply(source);
    check(rejecting, header, c, c.rejectRead(), c.rejectWrite());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void ignoringInstanceServesEachEntryAsIfItHadNoToken(Case c) throws IOException {
    String header = c.header().apply(source);
    check(ignoring, header, c, c.ignoreRead(), c.ignoreWrite());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oversized")
  void containerRefusesOversizedHeadersBeforeTheFilterWithItsOwn400(Case c) throws IOException {
    String header = c.header().apply(source);
    long id = ids.incrementAndGet();

    Response read = send(defaultHeaderSize, "GET", "/orders/" + EXISTING, header);
    Response write = send(defaultHeaderSize, "POST", "/orders/" + id + "?customer=eve", header);

    assertThat(read.status()).as("read").isEqualTo(400);
    assertThat(write.status()).as("write").isEqualTo(400);
    assertThat(rows(id)).as("rows written by the refused write").isZero();
    assertNothingReachedTheServers(c);
  }

  /** The control for the log checks: a token that verifies is waited for, and the log shows it. */
  @Test
  void generalLogShowsTheWaitForATokenThatVerifies() throws IOException {
    Case ahead =
        CASES.stream().filter(c -> c.name().equals("GNO ahead of the source")).findFirst().get();
    String gtids = source.uuid() + ":1-" + (source.lastGno() + 1_000_000);

    Response read = send(rejecting, "GET", "/orders/" + EXISTING, ahead.header().apply(source));

    assertAnswer("read", read, ahead.rejectRead());
    assertThat(statementsNaming(topology.replica(), gtids)).isPositive();
  }

  private static void check(
      ConfigurableApplicationContext app,
      @Nullable String header,
      Case c,
      Answer expectedRead,
      Answer expectedWrite)
      throws IOException {
    long id = ids.incrementAndGet();

    Response read = send(app, "GET", "/orders/" + EXISTING, header);
    Response write = send(app, "POST", "/orders/" + id + "?customer=eve", header);

    assertAnswer("read", read, expectedRead);
    assertAnswer("write", write, expectedWrite);
    assertThat(rows(id))
        .as("rows written by the write")
        .isEqualTo(expectedWrite.status() == 201 ? 1 : 0);
    assertNothingReachedTheServers(c);
  }

  private static void assertAnswer(String what, Response response, Answer expected) {
    assertThat(response.status())
        .as(what + " status: " + response.text())
        .isEqualTo(expected.status());
    if (expected.reason() == null) {
      assertThat(response.header("Content-Type"))
          .as(what + " is not the filter's problem")
          .isNotEqualTo("application/problem+json");
    } else {
      assertThat(response.header("Content-Type")).as(what).isEqualTo("application/problem+json");
      assertThat(response.body())
          .as(what)
          .contains("\"reason\":\"" + expected.reason() + "\"")
          .contains(
              "\"type\":\"urn:tidemark:problem:"
                  + expected.reason().toLowerCase(Locale.ROOT).replace('_', '-')
                  + "\"");
    }
  }

  private static void assertNothingReachedTheServers(Case c) {
    String needle = c.needle();
    if (needle == null) {
      return;
    }
    for (MySqlNode node : topology.nodes()) {
      assertThat(statementsNaming(node, needle))
          .as("statements on %s naming %s", node.name(), needle)
          .isZero();
    }
  }

  /** Statements in {@code node}'s general log that hold {@code text}, this query aside. */
  private static long statementsNaming(MySqlNode node, String text) {
    return Long.parseLong(
        node.queryString(
            "SELECT COUNT(*) FROM mysql.general_log"
                + " WHERE CONVERT(argument USING utf8mb4) LIKE '%"
                + text
                + "%' AND CONVERT(argument USING utf8mb4) NOT LIKE '%general_log%'"));
  }

  private static long rows(long id) {
    return Long.parseLong(
        topology.source().queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id));
  }

  private static long lastGno(String gtidExecuted, String uuid) {
    for (String part : gtidExecuted.replace("\n", "").split(",")) {
      if (part.trim().startsWith(uuid)) {
        String[] intervals = part.trim().split(":");
        String last = intervals[intervals.length - 1];
        return Long.parseLong(last.substring(last.indexOf('-') + 1));
      }
    }
    throw new IllegalStateException(uuid + " not in " + gtidExecuted);
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }

  /** One HTTP/1.1 exchange on its own connection, the header written byte for byte. */
  private static Response send(
      ConfigurableApplicationContext app, String method, String path, @Nullable String header)
      throws IOException {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    StringBuilder request = new StringBuilder();
    request.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    request.append("Host: 127.0.0.1:").append(port).append("\r\n");
    if (header != null) {
      request.append("Consistency-Token: ").append(header).append("\r\n");
    }
    if (method.equals("POST")) {
      request.append("Content-Length: 0\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      try {
        out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      } catch (IOException e) {
        // The server may answer and close before reading all of an oversized request.
      }
      return Response.read(socket.getInputStream());
    }
  }

  record Response(int status, String head, String body) {

    static Response read(InputStream in) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          bytes.write(buffer, 0, n);
        }
      } catch (IOException e) {
        if (bytes.size() == 0) {
          throw e;
        }
      }
      String text = bytes.toString(StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      String head = end < 0 ? text : text.substring(0, end);
      String body = end < 0 ? "" : text.substring(end + 4);
      String[] statusLine = head.split("\r\n", 2)[0].split(" ");
      return new Response(Integer.parseInt(statusLine[1]), head, body);
    }

    @Nullable String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }

    String text() {
      return head + "\n\n" + (body.length() > 500 ? body.substring(0, 500) : body);
    }
  }
}

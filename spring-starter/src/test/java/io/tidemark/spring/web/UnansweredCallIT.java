package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.token.TokenCodec;
import io.tidemark.topology.ExecutionHistory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * A caller and a callee on one MySQL cluster, with the whole starter on real servers and the
 * replica's applier paused. The caller POSTs to the callee with a short read timeout; the callee
 * commits a row and then holds its answer past that timeout, so the caller's {@code RestClient}
 * fails without an answer, and so without the callee's token. The caller catches the failure and
 * answers. The callee may have committed, and it did: the caller's answer token must cover that
 * write, so that the client's read of the row finds it, although the replica does not have it.
 */
@ExtendWith(TestkitExtension.class)
class UnansweredCallIT {

  private static final String NAME = "Consistency-Token";
  private static final Duration READ_TIMEOUT = Duration.ofMillis(300);

  /** The callee's commit, as its context captured it. */
  private static final AtomicReference<GtidSet> committed = new AtomicReference<>();

  private static final CountDownLatch commitDone = new CountDownLatch(1);
  private static final CountDownLatch release = new CountDownLatch(1);

  private static MySqlTopology topology;
  private static ConfigurableApplicationContext caller;
  private static ConfigurableApplicationContext callee;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    String db = topology.createDatabase("unanswered");
    topology.source().execute("CREATE TABLE `" + db + "`.notes (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
    callee = start(db, "callee", null);
    caller = start(db, "caller", url(callee));
  }

  @AfterAll
  static void stop() {
    release.countDown();
    if (caller != null) {
      caller.close();
    }
    if (callee != null) {
      callee.close();
    }
  }

  @Test
  void theCallersAnswerCoversWhatTheCalleeCommittedBeforeTheCallTimedOut() throws Exception {
    topology.replica().pauseApplier();
    try {
      HttpResponse<String> answer = send("POST", url(caller) + "/orders/1", null);
      release.countDown();

      assertThat(answer.statusCode()).isEqualTo(200);
      String token = answer.headers().firstValue(NAME).orElse(null);

      HttpResponse<String> read = send("GET", url(caller) + "/notes/1", token);

      assertThat(read.body())
          .as("the client's read with the caller's token")
          .isEqualTo("found source SOURCE_FALLBACK");
      assertThat(verified(token).containsAll(committed.get()))
          .as("%s covers the callee's %s", verified(token), committed.get())
          .isTrue();
      // The caller's answer: "<the failure it caught> | <why its context is dirty>"
      String[] parts = answer.body().split(" \\| ", -1);
      assertThat(parts[0]).isEqualTo("no answer: ResourceAccessException");
      assertThat(parts[1])
          .contains("POST")
          .contains("localhost:" + port(callee))
          .doesNotContain("/notes")
          .doesNotContain("secret");
    } finally {
      release.countDown();
      topology.replica().resumeApplier();
    }
  }

  private static GtidSet verified(String header) {
    TokenCodec codec = TestTokens.codec();
    return codec.verify(codec.parseHeader(header), "default").orElseThrow().gtids();
  }

  private static HttpResponse<String> send(String method, String url, String token)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      request.header(NAME, token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  private static String url(ConfigurableApplicationContext context) {
    return "http://localhost:" + port(context);
  }

  private static ConfigurableApplicationContext start(String db, String name, String peer) {
    return new SpringApplicationBuilder(Service.class)
        .properties(
            "spring.application.name=" + name,
            "spring.main.banner-mode=off",
            "server.port=0",
            "spring.datasource.url=" + topology.source().jdbcUrl(db),
            "spring.datasource.username=" + topology.source().user(),
            "spring.datasource.password=" + topology.source().password(),
            "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
            "tidemark.token.secret=" + TestTokens.SECRET,
            "tidemark.read.timeout=1s",
            "peer.url=" + (peer == null ? "" : peer))
        .run();
  }

  /** The service both run. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({Service.Endpoints.class, Service.Notes.class})
  static class Service {

    /** Boot's builder, with the starter's interceptor, on a client that gives up quickly. */
    @Bean
    RestClient peer(RestClient.Builder builder, Environment environment) {
      JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
      factory.setReadTimeout(READ_TIMEOUT);
      return builder
          .baseUrl(environment.getRequiredProperty("peer.url"))
          .requestFactory(factory)
          .build();
    }

    static class Notes {
      private final JdbcTemplate jdbc;

      Notes(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
      }

      @ReadYourWrites
      public Optional<Integer> find(int id) {
        return jdbc.query("SELECT id FROM notes WHERE id = ?", (rs, i) -> rs.getInt(1), id).stream()
            .findFirst();
      }
    }

    @RestController
    static class Endpoints {
      private final JdbcTemplate jdbc;
      private final RestClient peer;
      private final Notes notes;
      private final ExecutionHistory history;

      Endpoints(JdbcTemplate jdbc, RestClient peer, Notes notes, ExecutionHistory history) {
        this.jdbc = jdbc;
        this.peer = peer;
        this.notes = notes;
        this.history = history;
      }

      /**
       * The caller: has the callee write the note, and answers whatever came of it, once the callee
       * has committed (so that the answer comes after the commit, as in the case this reproduces,
       * whatever the timing of the servers).
       */
      @PostMapping("/orders/{id}")
      String order(@PathVariable int id) throws InterruptedException {
        String outcome;
        try {
          outcome = peer.post().uri("/notes/{id}?secret=s3cr3t", id).retrieve().body(String.class);
        } catch (RestClientException e) {
          outcome = "no answer: " + e.getClass().getSimpleName();
        }
        assertThat(commitDone.await(30, TimeUnit.SECONDS)).isTrue();
        return outcome + " | " + ConsistencyContext.current().dirtyBecause();
      }

      /** The callee: commits the note, then holds its answer until the test lets it go. */
      @PostMapping("/notes/{id}")
      String write(@PathVariable int id) throws InterruptedException {
        jdbc.update("INSERT INTO notes VALUES (?)", id);
        committed.set(ConsistencyContext.current().gtids());
        commitDone.countDown();
        release.await(30, TimeUnit.SECONDS);
        return "written";
      }

      /** The note as read, where and why: "found source SOURCE_FALLBACK". */
      @GetMapping("/notes/{id}")
      String read(@PathVariable int id) {
        String found = notes.find(id).isPresent() ? "found" : "missing";
        ExecutionRecord last = history.recent().get(0);
        return found + " " + last.role().label() + " " + last.reason();
      }
    }
  }
}

package io.tidemark.spring.web;

import static io.tidemark.spring.web.PeerServices.NAME;
import static io.tidemark.spring.web.PeerServices.database;
import static io.tidemark.spring.web.PeerServices.port;
import static io.tidemark.spring.web.PeerServices.send;
import static io.tidemark.spring.web.PeerServices.url;
import static io.tidemark.spring.web.PeerServices.verified;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.web.PeerServices.Peers;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
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

  private static final Duration READ_TIMEOUT = Duration.ofMillis(300);

  /** The callee's commit, as its context captured it. */
  private static final AtomicReference<GtidSet> committed = new AtomicReference<>();

  private static final CountDownLatch commitDone = new CountDownLatch(1);
  private static final CountDownLatch release = new CountDownLatch(1);

  private static MySqlTopology topology;
  private static Peers peers;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    String db = database(topology, "unanswered", "CREATE TABLE {db}.notes (id INT PRIMARY KEY)");
    peers = Peers.start(Service.class, topology, db, "tidemark.read.timeout=1s");
  }

  @AfterAll
  static void stop() {
    release.countDown();
    PeerServices.stop(peers);
  }

  @Test
  void theCallersAnswerCoversWhatTheCalleeCommittedBeforeTheCallTimedOut() throws Exception {
    topology.replica().pauseApplier();
    try {
      HttpResponse<String> answer = send("POST", url(peers.caller()) + "/orders/1", null);
      release.countDown();

      assertThat(answer.statusCode()).isEqualTo(200);
      String token = answer.headers().firstValue(NAME).orElse(null);

      HttpResponse<String> read = send("GET", url(peers.caller()) + "/notes/1", token);

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
          .contains("localhost:" + port(peers.callee()))
          .doesNotContain("/notes")
          .doesNotContain("secret");
    } finally {
      release.countDown();
      topology.replica().resumeApplier();
    }
  }

  /** The service both run. */
  @PeerServices.Application
  @Import(Service.Endpoints.class)
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

    @RestController
    static class Endpoints extends PeerServices.Endpoints {
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
        String found =
            reads.first("SELECT id FROM notes WHERE id = ?", id).isPresent() ? "found" : "missing";
        return found + " " + lastRead();
      }
    }
  }
}

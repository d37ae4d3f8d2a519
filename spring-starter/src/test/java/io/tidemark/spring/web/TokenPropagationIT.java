package io.tidemark.spring.web;

import static io.tidemark.spring.web.PeerServices.NAME;
import static io.tidemark.spring.web.PeerServices.database;
import static io.tidemark.spring.web.PeerServices.send;
import static io.tidemark.spring.web.PeerServices.url;
import static io.tidemark.spring.web.PeerServices.verified;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.web.PeerServices.Peers;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.token.TokenCodec;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Two instances of a service on one MySQL cluster, A calling B, with the whole starter on real
 * servers and the replica's applier delayed, so that a read on the replica without the right token
 * would miss the write. A writes, calls B, which writes, and A then reads B's write under
 * {@code @ReadYourWrites}: fresh, on the replica after a wait, because B's answer carried B's token
 * into A's context. The client then reads B's write from A with A's answer token, again fresh on
 * the replica.
 */
@ExtendWith(TestkitExtension.class)
class TokenPropagationIT {

  private static final Duration DELAY = Duration.ofSeconds(2);

  private static MySqlTopology topology;

  /** A is the caller, B the callee. */
  private static Peers peers;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    String db =
        database(
            topology,
            "web",
            "CREATE TABLE {db}.orders (id INT PRIMARY KEY)",
            "CREATE TABLE {db}.payments (id INT PRIMARY KEY, status VARCHAR(20))");
    peers =
        Peers.start(
            Service.class,
            topology,
            db,
            "tidemark.read.timeout=10s",
            // A's POST reads what B wrote: on the replica, as the token B answered lets it, not on
            // the source, where the reads of a request about to write go by default.
            "tidemark.web.unsafe-method-reads=replica");
  }

  @AfterAll
  static void stop() {
    PeerServices.stop(peers);
  }

  @Test
  void aReadsWhatBWroteOnTheReplicaAndSoDoesTheClientAfterwards() throws Exception {
    topology.replica().delayApplier(DELAY);
    try {
      HttpResponse<String> chain = send("POST", url(peers.caller()) + "/orders/1", null);

      assertThat(chain.statusCode()).isEqualTo(200);
      // B's answer, as A printed it: "<B's token GTIDs> | <payment A read> <where> <why>"
      String[] parts = chain.body().split(" \\| ");
      GtidSet writtenByB = GtidSet.parse(parts[0]);
      assertThat(parts[1]).isEqualTo("paid replica REPLICA_AFTER_WAIT");
      String token = chain.headers().firstValue(NAME).orElseThrow();
      assertThat(verified(token).containsAll(writtenByB)).isTrue();

      HttpResponse<String> later = send("GET", url(peers.caller()) + "/payments/1", token);

      assertThat(later.body())
          .isIn("paid replica REPLICA_AFTER_WAIT", "paid replica REPLICA_CAUGHT_UP");
    } finally {
      topology.replica().delayApplier(Duration.ZERO);
    }
  }

  @Test
  void readsTheSourceForATokenSignedWithAnotherSecret() throws Exception {
    TokenCodec stranger = TestTokens.codec(TestTokens.OTHER_SECRET);
    String forged =
        TestTokens.header(stranger, "default", topology.source().serverUuid() + ":1-1000000");

    HttpResponse<String> response = send("GET", url(peers.caller()) + "/payments/1", forged);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).endsWith(" source SOURCE_BY_POLICY");
    assertThat(response.headers().firstValue("Consistency-Token")).isPresent();
  }

  @Test
  void answersASignedTokenNamingASourceTheClusterDoesNotKnowWith400() throws Exception {
    String unknown = TestTokens.header("default", TestTokens.A + ":1-5");

    HttpResponse<String> response = send("GET", url(peers.caller()) + "/payments/1", unknown);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("\"reason\":\"TOKEN_REJECTED\"");
  }

  /** The service both instances run. */
  @PeerServices.Application
  @Import(Service.Endpoints.class)
  static class Service {

    @Bean
    RestClient peer(RestClient.Builder builder, Environment environment) {
      return builder.baseUrl(environment.getRequiredProperty("peer.url")).build();
    }

    @RestController
    static class Endpoints extends PeerServices.Endpoints {
      /** A: takes the order, has B take the payment, reads the payment back. */
      @PostMapping("/orders/{id}")
      String order(@PathVariable int id) {
        jdbc.update("INSERT INTO orders VALUES (?)", id);
        String writtenByB = peer.post().uri("/payments/{id}", id).retrieve().body(String.class);
        return writtenByB + " | " + describe(id);
      }

      /** B: takes the payment; answers with what its context holds after the write. */
      @PostMapping("/payments/{id}")
      String pay(@PathVariable int id) {
        jdbc.update("INSERT INTO payments VALUES (?, 'paid')", id);
        return ConsistencyContext.current().gtids().toSingleLineString();
      }

      @GetMapping("/payments/{id}")
      String payment(@PathVariable int id) {
        return describe(id);
      }

      /** The payment as read, where and why: "paid replica REPLICA_AFTER_WAIT". */
      private String describe(int id) {
        String status =
            reads.first("SELECT status FROM payments WHERE id = ?", id).orElse("missing");
        return status + " " + lastRead();
      }
    }
  }
}

package io.tidemark.spring.shop;

import static io.tidemark.spring.OrdersApplication.assertRead;
import static io.tidemark.spring.OrdersApplication.lastRead;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * A client chooses the level of a request's reads with the {@code Consistency-Level} header: a
 * webhook that carries no token sees another client's write at {@code GLOBAL}, a client that asks
 * for {@code EVENTUAL} gets the replica's state at once, and a level that does not exist is a 400.
 */
class ConsistencyLevelHeaderIT {

  private static final AtomicLong ids = new AtomicLong(95_000);
  private static final RestClient http = RestClient.create();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("levels");

  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() {
    app = shops.startWeb();
  }

  @Test
  void aRequestWithoutATokenAtGlobalSeesAnotherClientsWrite() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    try {
      shops
          .topology()
          .source()
          .execute("INSERT INTO `" + shops.db() + "`.orders VALUES (" + id + ", 'ada', 'NEW', 1)");
      CompletableFuture<Void> resume =
          shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));

      ResponseEntity<String> plain = get(id, null);
      ResponseEntity<String> global = get(id, "global");
      resume.join();

      assertThat(plain.getStatusCode().value()).as("no token: the replica's state").isEqualTo(404);
      assertThat(global.getStatusCode().value()).as(global.toString()).isEqualTo(200);
      assertThat(global.getBody()).contains("ada");
      assertRead(lastRead(app), NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
    } finally {
      shops.topology().replica().resumeApplier();
    }
  }

  @Test
  void aRequestAtEventualReadsTheReplicaWithoutWaitingForItsToken() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    try {
      String token = ShopHttp.create(app, id, "grace");

      ResponseEntity<String> eventual =
          http.get()
              .uri(url("/orders/" + id))
              .header("Consistency-Token", token)
              .header("Consistency-Level", "EVENTUAL")
              .retrieve()
              .onStatus(status -> true, (request, response) -> {})
              .toEntity(String.class);

      assertThat(eventual.getStatusCode().value()).as("the replica lacks the write").isEqualTo(404);
      ExecutionRecord read = lastRead(app);
      assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.REPLICA_NO_TOKEN);
      assertThat(eventual.getHeaders().getFirst("Consistency-Token"))
          .as("the answer keeps the client's token")
          .isNotBlank();
    } finally {
      shops.topology().replica().resumeApplier();
    }
  }

  @Test
  void aLevelThatDoesNotExistIsA400Problem() {
    ResponseEntity<String> answer = get(ids.incrementAndGet(), "linearizable");

    assertThat(answer.getStatusCode().value()).isEqualTo(400);
    assertThat(answer.getHeaders().getContentType()).hasToString("application/problem+json");
    assertThat(answer.getBody()).contains("SESSION, GLOBAL, BOUNDED or EVENTUAL");
  }

  private static ResponseEntity<String> get(long id, String level) {
    RestClient.RequestHeadersSpec<?> request = http.get().uri(url("/orders/" + id));
    if (level != null) {
      request = request.header("Consistency-Level", level);
    }
    return request.retrieve().onStatus(status -> true, (r, response) -> {}).toEntity(String.class);
  }

  private static String url(String path) {
    return ShopHttp.url(app, path);
  }
}

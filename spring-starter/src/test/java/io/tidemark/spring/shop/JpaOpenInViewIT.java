package io.tidemark.spring.shop;

import static io.tidemark.spring.OrdersApplication.assertRead;
import static io.tidemark.spring.OrdersApplication.lastRead;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Spring Boot's defaults for JPA, open-in-view on: the request's EntityManager is opened before the
 * controller runs and lives until the response. A {@code @ReadYourWrites} JPA read still runs on
 * the replica connection it waited on, a write after it still goes to the source, and the next
 * request's JPA read, carrying that write's token, waits for it on the replica.
 */
class JpaOpenInViewIT {

  @RegisterExtension static final ShopInstances shops = new ShopInstances("osiv");

  private static ConfigurableApplicationContext app;
  private static final RestClient http = RestClient.create();

  @BeforeAll
  static void start() {
    app = shops.startWeb("spring.jpa.open-in-view=true");
  }

  @Test
  void aReadAfterAJpaLookUpInTheSameRequestRunsOnTheReplica() {
    ResponseEntity<String> answer =
        http.get()
            .uri(url("/jpa/server-after-lookup"))
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);

    assertThat(answer.getStatusCode().value()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.getBody()).isEqualTo(shops.topology().replica().serverUuid());
  }

  @Test
  void aWriteAfterAJpaReadInTheSameRequestGoesToTheSource() {
    shops
        .topology()
        .source()
        .execute("INSERT INTO `" + shops.db() + "`.orders VALUES (1, 'ada', 'NEW', 1)");
    shops.topology().awaitReplicasCaughtUp(Duration.ofSeconds(10));

    ResponseEntity<String> answer =
        http.post()
            .uri(url("/jpa/orders/1/status?value=PAID"))
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);

    assertThat(answer.getStatusCode().value()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.getBody()).isEqualTo("NEW->PAID");
    assertThat(
            shops
                .topology()
                .source()
                .queryString("SELECT status FROM `" + shops.db() + "`.orders WHERE id = 1"))
        .isEqualTo("PAID");
  }

  @Test
  void theNextRequestsJpaReadSeesAJpaWriteOnTheReplicaAfterTheWait() {
    shops
        .topology()
        .source()
        .execute("INSERT INTO `" + shops.db() + "`.orders VALUES (2, 'grace', 'NEW', 1)");
    shops.topology().awaitReplicasCaughtUp(Duration.ofSeconds(10));
    shops.topology().replica().pauseApplier();
    try {
      ResponseEntity<String> write =
          http.post().uri(url("/jpa/orders/2/status?value=PAID")).retrieve().toEntity(String.class);
      String token = write.getHeaders().getFirst("Consistency-Token");
      assertThat(token).as("the write's response carries its token").isNotBlank();
      assertThat(
              shops
                  .topology()
                  .replica()
                  .queryString("SELECT status FROM `" + shops.db() + "`.orders WHERE id = 2"))
          .as("a read on the replica without the wait would miss the write")
          .isEqualTo("NEW");

      CompletableFuture<Void> resume =
          shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));
      ResponseEntity<String> read =
          http.get()
              .uri(url("/jpa/orders/2/status"))
              .header("Consistency-Token", token)
              .retrieve()
              .toEntity(String.class);
      resume.join();

      assertThat(read.getBody()).isEqualTo("PAID");
      assertRead(lastRead(app), NodeRole.REPLICA, Reason.REPLICA_AFTER_WAIT);
    } finally {
      shops.topology().replica().resumeApplier();
    }
  }

  private static String url(String path) {
    return ShopHttp.url(app, path);
  }
}

package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.TestkitExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Spring Boot's defaults for JPA, open-in-view on: the request's EntityManager is opened before the
 * controller runs and lives until the response. A {@code @ReadYourWrites} JPA read still runs on
 * the replica connection it waited on, and a write after it still goes to the source.
 */
@ExtendWith(TestkitExtension.class)
class JpaOpenInViewIT {

  private static MySqlTopology topology;
  private static String db;
  private static ConfigurableApplicationContext app;
  private static final RestClient http = RestClient.create();

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    db = topology.createDatabase("osiv");
    ShopApplication.createSchema(topology, db);
    app = ShopApplication.startWeb(topology, db, "spring.jpa.open-in-view=true");
  }

  @AfterAll
  static void stop() {
    app.close();
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
    assertThat(answer.getBody()).isEqualTo(topology.replica().serverUuid());
  }

  @Test
  void aWriteAfterAJpaReadInTheSameRequestGoesToTheSource() {
    topology.source().execute("INSERT INTO `" + db + "`.orders VALUES (1, 'ada', 'NEW', 1)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));

    ResponseEntity<String> answer =
        http.post()
            .uri(url("/jpa/orders/1/status?value=PAID"))
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);

    assertThat(answer.getStatusCode().value()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.getBody()).isEqualTo("NEW->PAID");
    assertThat(topology.source().queryString("SELECT status FROM `" + db + "`.orders WHERE id = 1"))
        .isEqualTo("PAID");
  }

  private static String url(String path) {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    return "http://127.0.0.1:" + port + path;
  }
}

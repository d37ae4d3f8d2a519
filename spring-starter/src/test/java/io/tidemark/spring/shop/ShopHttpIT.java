package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Two instances of the shop as HTTP servers sharing nothing but the {@code Consistency-Token}
 * header the client carries from the write's response to the read's request.
 */
@ExtendWith(TestkitExtension.class)
class ShopHttpIT {

  private static final AtomicLong ids = new AtomicLong(1_000);
  private static MySqlTopology topology;
  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;
  private static RestClient http = RestClient.create();

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    String db = ShopApplication.database(topology, "shophttp");
    first = ShopApplication.startWeb(topology, db);
    second = ShopApplication.startWeb(topology, db);
  }

  @AfterAll
  static void stop() {
    first.close();
    second.close();
  }

  @AfterEach
  void resumeReplica() {
    topology.replica().resumeApplier();
  }

  @Test
  void readOnTheOtherInstanceWithTheWritesHeaderIsFresh() {
    long id = ids.incrementAndGet();
    topology.replica().pauseApplier();
    String token = create(id);
    CompletableFuture<Void> resume = topology.replica().resumeApplierAfter(Duration.ofMillis(300));

    ResponseEntity<String> read =
        http.get()
            .uri(url(second, "/orders/" + id))
            .header("Consistency-Token", token)
            .retrieve()
            .toEntity(String.class);
    resume.join();

    assertThat(read.getStatusCode().value()).isEqualTo(200);
    assertThat(read.getBody()).contains("\"customer\":\"ada\"");
  }

  @Test
  void heldBackReplicaAnswers503WithTheReasonWithinTheBudget() {
    long id = ids.incrementAndGet();
    topology.replica().pauseApplier();
    String token = create(id);

    long started = System.nanoTime();
    ResponseEntity<String> read =
        http.get()
            .uri(url(second, "/orders/" + id + "/strict"))
            .header("Consistency-Token", token)
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertThat(read.getStatusCode().value()).isEqualTo(503);
    // The replica's lag as probed, rounded up, at least a second and at most the 30 s ceiling.
    assertThat(Integer.parseInt(read.getHeaders().getFirst("Retry-After"))).isBetween(1, 30);
    assertThat(read.getHeaders().getContentType()).hasToString("application/problem+json");
    assertThat(read.getBody())
        .contains("\"type\":\"urn:tidemark:problem:wait-timeout\"")
        .contains("\"reason\":\"WAIT_TIMEOUT\"");
    assertThat(elapsedMillis).isLessThan(300 + 500);
  }

  private static String create(long id) {
    ResponseEntity<Void> created =
        http.post()
            .uri(url(first, "/orders/" + id + "?customer=ada"))
            .retrieve()
            .toBodilessEntity();
    String token = created.getHeaders().getFirst("Consistency-Token");
    assertThat(token).as("the write's response carries its token").isNotBlank();
    return token;
  }

  private static String url(ConfigurableApplicationContext context, String path) {
    int port = ((WebServerApplicationContext) context).getWebServer().getPort();
    return "http://127.0.0.1:" + port + path;
  }
}

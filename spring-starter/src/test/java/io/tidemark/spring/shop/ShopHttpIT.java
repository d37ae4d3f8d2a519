package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Two instances of the shop as HTTP servers sharing nothing but the {@code Consistency-Token}
 * header the client carries from the write's response to the read's request.
 */
class ShopHttpIT {

  private static final AtomicLong ids = new AtomicLong(1_000);

  @RegisterExtension static final ShopInstances shops = new ShopInstances("shophttp");

  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;
  private static RestClient http = RestClient.create();

  @BeforeAll
  static void start() {
    first = shops.startWeb();
    second = shops.startWeb();
  }

  @Test
  void readOnTheOtherInstanceWithTheWritesHeaderIsFresh() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    String token = create(id);
    CompletableFuture<Void> resume =
        shops.topology().replica().resumeApplierAfter(Duration.ofMillis(300));

    ResponseEntity<String> read =
        http.get()
            .uri(ShopHttp.url(second, "/orders/" + id))
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
    shops.topology().replica().pauseApplier();
    String token = create(id);

    long started = System.nanoTime();
    ResponseEntity<String> read =
        http.get()
            .uri(ShopHttp.url(second, "/orders/" + id + "/strict"))
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
    String token = ShopHttp.create(first, id, "ada");
    assertThat(token).as("the write's response carries its token").isNotBlank();
    return token;
  }
}

package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.SkewedClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/**
 * One instance whose clock is off, as on a host whose time drifted: once the drift passes {@code
 * tidemark.token.clock-skew}, the others cannot take its tokens (from the future, or expired), so
 * they read the source for them; within it they take them. Both readers keep tokens 10 s ({@code
 * tidemark.token.time-to-live}).
 */
class TokenClockSkewIT {

  private static final AtomicLong ids = new AtomicLong(System.nanoTime());
  private static final RestClient http = RestClient.create();
  private static ConfigurableApplicationContext drifting;
  private static ConfigurableApplicationContext strict;
  private static ConfigurableApplicationContext tolerant;

  @RegisterExtension static final ShopInstances shops = new ShopInstances("clock_skew");

  @BeforeAll
  static void start() {
    drifting = shops.startWeb("shop.token-clock-skew=0s");
    strict =
        shops.startWeb(
            "tidemark.token.time-to-live=10s", "tidemark.web.read-header=Consistency-Read");
    tolerant = shops.startWeb("tidemark.token.time-to-live=10s", "tidemark.token.clock-skew=1m");
  }

  @AfterEach
  void setClockRight() {
    drifting.getBean(SkewedClock.class).skew(Duration.ZERO);
  }

  @Test
  void aTokenFromAClockAheadByMoreThanTheSkewSendsTheReadToTheSource() {
    drift(Duration.ofSeconds(40));
    Written order = write();

    assertThat(read(strict, order)).startsWith("200 source;");
    assertThat(read(tolerant, order)).startsWith("200");
  }

  @Test
  void aTokenFromAClockBehindByMoreThanItsLifeAndTheSkewSendsTheReadToTheSource() {
    drift(Duration.ofSeconds(-45));
    Written order = write();

    assertThat(read(strict, order)).startsWith("200 source;");
    assertThat(read(tolerant, order)).startsWith("200");
  }

  @Test
  void aClockOffByLessThanTheSkewChangesNothing() {
    drift(Duration.ofSeconds(20));
    Written ahead = write();
    drift(Duration.ofSeconds(-35));
    Written behind = write();

    assertThat(read(strict, ahead)).startsWith("200");
    assertThat(read(strict, behind)).startsWith("200");
  }

  private static void drift(Duration skew) {
    drifting.getBean(SkewedClock.class).skew(skew);
  }

  /** An order created on the drifting instance, and its answer's token. */
  private record Written(long id, String token) {}

  private static Written write() {
    long id = ids.incrementAndGet();
    String token =
        http.post()
            .uri(ShopHttp.url(drifting, "/orders/" + id + "?customer=ada"))
            .retrieve()
            .toBodilessEntity()
            .getHeaders()
            .getFirst("Consistency-Token");
    assertThat(token).isNotBlank();
    return new Written(id, token);
  }

  /** The status and body of reading {@code order} on {@code instance} with its token. */
  private static String read(ConfigurableApplicationContext instance, Written order) {
    return http.get()
        .uri(ShopHttp.url(instance, "/orders/" + order.id()))
        .header("Consistency-Token", order.token())
        .exchange(
            (request, response) ->
                response.getStatusCode().value()
                    + " "
                    + response.getHeaders().getFirst("Consistency-Read")
                    + " "
                    + response.bodyTo(String.class));
  }
}

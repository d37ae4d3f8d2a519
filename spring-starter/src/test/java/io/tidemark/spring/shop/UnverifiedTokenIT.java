package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.HttpCookie;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;

/**
 * Two instances of one service without a configured secret, each signing with a random secret of
 * its own, as after a restart or behind a load balancer: a token one issued does not verify on the
 * other. Its writes cannot be known there, so the other reads the source, never a lagging replica
 * as if the client had written nothing.
 */
class UnverifiedTokenIT {

  private static final AtomicLong ids = new AtomicLong(System.nanoTime());
  private static final RestClient http = RestClient.create();
  private static final String COOKIE = "Consistency-Token-shop";

  @RegisterExtension static final ShopInstances shops = new ShopInstances("unverified");

  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;

  @BeforeAll
  static void start() {
    String[] randomSecret = {"tidemark.token.secret=", "tidemark.web.read-header=Consistency-Read"};
    first = shops.startWeb(randomSecret);
    second = shops.startWeb(randomSecret);
  }

  @Test
  void aCookieSignedByAnotherInstanceSendsTheReadToTheSourceAndIsReplaced() {
    shops.topology().replica().pauseApplier();
    long id = ids.incrementAndGet();
    HttpHeaders written = create(id);
    HttpCookie cookie = cookie(written);

    Answer read = get(second, id, HttpHeaders.COOKIE, COOKIE + "=" + cookie.getValue());

    assertThat(read.status()).as("the order, not a lagging replica's 404").isEqualTo(200);
    assertThat(read.headers().getFirst("Consistency-Read")).startsWith("source;");
    HttpCookie replaced = cookie(read.headers());
    assertThat(replaced.getValue()).isNotEqualTo(cookie.getValue());

    shops.topology().replica().resumeApplier();
    Answer again = get(second, id, HttpHeaders.COOKIE, COOKIE + "=" + replaced.getValue());
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.headers().getFirst("Consistency-Read"))
        .as("the replaced cookie verifies, so the replica may answer once it has the write")
        .startsWith("replica-1;");
  }

  @Test
  void aHeaderSignedByAnotherInstanceSendsTheReadToTheSourceNotBack400() {
    shops.topology().replica().pauseApplier();
    long id = ids.incrementAndGet();
    String token = create(id).getFirst("Consistency-Token");

    Answer read = get(second, id, "Consistency-Token", token);

    assertThat(read.status()).isEqualTo(200);
    assertThat(read.headers().getFirst("Consistency-Read")).startsWith("source;");
    assertThat(read.headers().getFirst("Consistency-Token")).isNotBlank().isNotEqualTo(token);
  }

  @Test
  void aMalformedHeaderIsStillRefused() {
    Answer read = get(second, ids.incrementAndGet(), "Consistency-Token", "shop=not a token");

    assertThat(read.status()).isEqualTo(400);
    assertThat(read.body()).contains("\"reason\":\"MALFORMED\"");
  }

  private record Answer(int status, HttpHeaders headers, String body) {}

  private static HttpHeaders create(long id) {
    return http.post()
        .uri(ShopHttp.url(first, "/orders/" + id + "?customer=ada"))
        .retrieve()
        .toBodilessEntity()
        .getHeaders();
  }

  private static Answer get(
      ConfigurableApplicationContext instance, long id, String header, String value) {
    return http.get()
        .uri(ShopHttp.url(instance, "/orders/" + id))
        .header(header, value)
        .exchange(
            (request, response) ->
                new Answer(
                    response.getStatusCode().value(),
                    response.getHeaders(),
                    response.bodyTo(String.class)));
  }

  private static HttpCookie cookie(HttpHeaders headers) {
    List<String> set = headers.get(HttpHeaders.SET_COOKIE);
    assertThat(set).as("Set-Cookie").isNotNull().hasSize(1);
    HttpCookie cookie = HttpCookie.parse(set.get(0)).get(0);
    assertThat(cookie.getName()).isEqualTo(COOKIE);
    return cookie;
  }
}

package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The token cookie with invalid header tokens rejected (the default): a cookie whose token does not
 * verify, as after a restart with a random secret, sends the request's reads to the source and is
 * replaced, never answered 400.
 */
class ConsistencyTokenCookieTests {

  private static ConfigurableApplicationContext app;
  private static String base;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    app = WebTestApplication.start("tidemark.web.cookie.name=tidemark");
    base = WebTestApplication.baseUrl(app);
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @Test
  void aCookieSignedWithAnotherSecretSendsTheReadsToTheSourceAndIsReplaced() throws Exception {
    String stale = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    HttpResponse<String> response = send("/context", null, "tidemark=" + stale);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith(" dirty=true");
    List<String> cookies = response.headers().allValues("Set-Cookie");
    assertThat(cookies).hasSize(1);
    assertThat(cookies.get(0)).startsWith("tidemark=default=").doesNotContain("1970");
  }

  @Test
  void aBadCookieIsReplacedByTheAnswersToken() throws Exception {
    String stale = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    HttpResponse<String> response = send("/write?gtids=" + A + ":9", null, "tidemark=" + stale);

    assertThat(response.body()).isEqualTo(gtids(A + ":9").toString());
    List<String> cookies = response.headers().allValues("Set-Cookie");
    assertThat(cookies).hasSize(1);
    assertThat(cookies.get(0)).startsWith("tidemark=default=").doesNotContain("1970");
  }

  @Test
  void aMalformedHeaderIsStillRefused() throws Exception {
    HttpResponse<String> response =
        send("/context", "default=not a token", "tidemark=" + header("default", A + ":1"));

    assertThat(response.statusCode()).isEqualTo(400);
  }

  private static HttpResponse<String> send(String path, String token, String cookie)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      request.header("Consistency-Token", token);
    }
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

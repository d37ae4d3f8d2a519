package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The token cookie with nothing configured: a browser never echoes a response header, so a web
 * application answers with the token in a cookie too, named after the cluster, {@code HttpOnly},
 * {@code SameSite=Lax}, {@code Secure} behind TLS; and only when the answer carries something the
 * request's cookie did not, so that static resources and plain page views set none.
 */
class ConsistencyTokenCookieDefaultsTests {

  private static final String COOKIE = "Consistency-Token-default";

  // As the documentation tells an application behind a proxy that ends TLS, on both Boot lines.
  @RegisterExtension
  static final WebTestServer server =
      new WebTestServer("server.forward-headers-strategy=framework");

  private static final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aWriteSetsTheClustersCookieForTheBrowser() throws Exception {
    HttpResponse<String> response = send("/write?gtids=" + A + ":7", null, false);

    List<String> cookies = response.headers().allValues("Set-Cookie");
    assertThat(cookies).hasSize(1);
    assertThat(cookies.get(0))
        .startsWith(COOKIE + "=default=v1.")
        .contains("Path=/")
        .contains("HttpOnly")
        .contains("SameSite=Lax")
        .doesNotContain("Secure");
    assertThat(response.headers().firstValue("Consistency-Token")).isPresent();
  }

  @Test
  void theCookieComesBackAsTheRequestsToken() throws Exception {
    String cookie = cookieOf(send("/write?gtids=" + A + ":8", null, false));

    HttpResponse<String> response = send("/context", cookie, false);

    assertThat(response.body()).contains(A + ":8");
  }

  @Test
  void anAnswerThatCarriesNothingNewSetsNoCookie() throws Exception {
    String cookie = cookieOf(send("/write?gtids=" + A + ":9", null, false));

    assertThat(send("/context", cookie, false).headers().allValues("Set-Cookie")).isEmpty();
    assertThat(send("/write?gtids=" + A + ":10", cookie, false).headers().allValues("Set-Cookie"))
        .as("a new write")
        .hasSize(1);
  }

  @Test
  void aStaticResourceSetsNoCookie() throws Exception {
    String cookie = cookieOf(send("/write?gtids=" + A + ":11", null, false));

    HttpResponse<String> withCookie = send("/tidemark-static.txt", cookie, false);
    HttpResponse<String> without = send("/tidemark-static.txt", null, false);

    assertThat(withCookie.statusCode()).isEqualTo(200);
    assertThat(withCookie.headers().allValues("Set-Cookie")).isEmpty();
    assertThat(without.headers().allValues("Set-Cookie")).isEmpty();
  }

  @Test
  void behindTlsTheCookieIsSecure() throws Exception {
    HttpResponse<String> response = send("/write?gtids=" + A + ":12", null, true);

    assertThat(response.headers().allValues("Set-Cookie"))
        .singleElement()
        .asString()
        .contains("Secure");
  }

  @Test
  void aCookieFromTheHeadersTokenToo() throws Exception {
    HttpResponse<String> response = send("/context", null, false, header("default", A + ":1-3"));

    assertThat(response.headers().allValues("Set-Cookie"))
        .singleElement()
        .asString()
        .startsWith(COOKIE + "=default=");
  }

  @Test
  void switchedOffThereIsNone() throws Exception {
    try (ConfigurableApplicationContext off =
        WebTestApplication.start("tidemark.web.cookie.enabled=false")) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(WebTestApplication.baseUrl(off) + "/write?gtids=" + A + ":13"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
      assertThat(response.headers().firstValue("Consistency-Token")).isPresent();
    }
  }

  private static String cookieOf(HttpResponse<String> response) {
    String set = response.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  private static HttpResponse<String> send(String path, @Nullable String cookie, boolean tls)
      throws Exception {
    return send(path, cookie, tls, null);
  }

  private static HttpResponse<String> send(
      String path, @Nullable String cookie, boolean tls, @Nullable String token) throws Exception {
    return server.get(
        path,
        "Cookie",
        cookie,
        "Consistency-Token",
        token,
        "X-Forwarded-Proto",
        tls ? "https" : null);
  }
}

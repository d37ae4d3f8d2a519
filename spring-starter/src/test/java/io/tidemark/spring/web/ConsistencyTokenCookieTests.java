package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestTokens;
import java.net.http.HttpResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The token cookie with invalid header tokens rejected (the default): a cookie whose token does not
 * verify, as after a restart with a random secret, sends the request's reads to the source and is
 * replaced, never answered 400.
 */
class ConsistencyTokenCookieTests {

  @RegisterExtension
  static final WebTestServer server = new WebTestServer("tidemark.web.cookie.name=tidemark");

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

  private static HttpResponse<String> send(
      String path, @Nullable String token, @Nullable String cookie) throws Exception {
    return server.get(path, "Consistency-Token", token, "Cookie", cookie);
  }
}

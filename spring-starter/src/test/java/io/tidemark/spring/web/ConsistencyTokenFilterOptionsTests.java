package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static io.tidemark.spring.autoconfigure.TestTokens.verified;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.ConsistencyHeader;
import java.net.http.HttpResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The filter with invalid tokens ignored, a cookie, another header name and no request budget. */
class ConsistencyTokenFilterOptionsTests {

  private static final String NAME = "X-Read-After";

  @RegisterExtension
  static final WebTestServer server =
      new WebTestServer(
          "tidemark.web.invalid-token=ignore",
          "tidemark.web.cookie.name=tidemark",
          "tidemark.web.header=" + NAME);

  @Test
  void goesOnWithoutATokenThatDoesNotVerifyButForwardsTheOtherClusters() throws Exception {
    String forged = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");
    String payments = header(TestTokens.codec(TestTokens.OTHER_SECRET), "payments", B + ":1");

    HttpResponse<String> response =
        send("/write?gtids=" + B + ":9", forged + ", " + payments, null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(B + ":9");
    String answer = response.headers().firstValue(NAME).orElseThrow();
    assertThat(verified(answer)).isEqualTo(gtids(B + ":9"));
    assertThat(TestTokens.codec().parseHeader(answer).tokens("payments"))
        .isEqualTo(TestTokens.codec().parseHeader(payments).tokens("payments"));
  }

  @Test
  void goesOnWithAMalformedHeaderReadingTheSource() throws Exception {
    HttpResponse<String> response = send("/context", "default=\"quoted\" OR 1=1", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(" dirty=true budget=none");
  }

  @Test
  void readsTheTokenFromTheCookieAndSetsItThere() throws Exception {
    HttpResponse<String> response =
        send("/write?gtids=" + B + ":2", null, "tidemark=" + header("default", A + ":1-3"));

    assertThat(response.body()).isEqualTo(gtids(A + ":1-3," + B + ":2").toString());
    List<String> cookies = response.headers().allValues("Set-Cookie");
    assertThat(cookies).hasSize(1);
    String cookie = cookies.get(0);
    assertThat(cookie).startsWith("tidemark=default=").contains("HttpOnly", "SameSite=Lax");
    String value = cookie.substring("tidemark=".length(), cookie.indexOf(';'));
    assertThat(verified(value)).isEqualTo(gtids(A + ":1-3," + B + ":2"));
    ConsistencyHeader header =
        TestTokens.codec().parseHeader(response.headers().firstValue(NAME).orElseThrow());
    assertThat(header.clusters()).containsExactly("default");
  }

  @Test
  void mergesHeaderAndCookie() throws Exception {
    HttpResponse<String> response =
        send("/context", header("default", A + ":1"), "tidemark=" + header("default", B + ":1"));

    assertThat(response.body()).startsWith(gtids(A + ":1," + B + ":1") + " dirty=false");
  }

  private static HttpResponse<String> send(
      String path, @Nullable String token, @Nullable String cookie) throws Exception {
    return server.get(path, NAME, token, "Cookie", cookie);
  }
}

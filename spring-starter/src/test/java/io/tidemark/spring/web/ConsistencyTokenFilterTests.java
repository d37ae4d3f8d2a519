package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static io.tidemark.spring.autoconfigure.TestTokens.verified;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The token filter on a real Tomcat with one request thread, so that a context left bound would
 * show up in the next request: tokens in, tokens out before the response is committed (plain,
 * streamed, async, error and refused responses), problems for bad tokens and refused reads.
 */
class ConsistencyTokenFilterTests {

  private static final String NAME = "Consistency-Token";

  @RegisterExtension
  static final WebTestServer server =
      new WebTestServer(
          "server.tomcat.threads.max=1",
          "server.tomcat.threads.min-spare=1",
          "tidemark.web.request-timeout=30s",
          "tidemark.web.retry-after=1500ms");

  @Test
  void opensTheContextWithTheVerifiedTokenAndTheRequestBudget() throws Exception {
    HttpResponse<String> response = get("/context", header("default", A + ":1-5"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith(A + ":1-5 dirty=false budget=");
    long budget = Long.parseLong(response.body().substring(response.body().indexOf("budget=") + 7));
    assertThat(budget).isBetween(1L, 30_000L);
  }

  @Test
  void answersWithTheMergedTokenOfRequestAndWrites() throws Exception {
    answered(
        get("/write?gtids=" + B + ":7", header("default", A + ":1-5")),
        200,
        A + ":1-5," + B + ":7");
  }

  @Test
  void leavesNoContextOnTheThreadForTheNextRequest() throws Exception {
    get("/write?gtids=" + B + ":1-9", header("default", A + ":1-5"));

    HttpResponse<String> next = get("/context", null);

    assertThat(next.body()).startsWith(" dirty=false budget=");
    assertThat(next.headers().firstValue(NAME)).isEmpty();
  }

  @Test
  void forwardsTheTokensOfOtherClustersUntouched() throws Exception {
    TokenCodec payments = TestTokens.codec(TestTokens.OTHER_SECRET);
    String paymentsHeader = header(payments, "payments", B + ":1-3");
    HttpResponse<String> response =
        get("/write?gtids=" + A + ":9", header("default", A + ":1-5") + ", " + paymentsHeader);

    ConsistencyHeader answer = TestTokens.codec().parseHeader(token(response));
    assertThat(answer.clusters()).containsExactly("default", "payments");
    assertThat(answer.tokens("payments"))
        .containsExactly(payments.parseHeader(paymentsHeader).tokens("payments").get(0));
    carries(response, A + ":1-5:9");
  }

  @Test
  void aTokenSignedWithAnotherSecretSendsTheReadsToTheSourceNotA400() throws Exception {
    String forged = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    HttpResponse<String> response = get("/context", forged);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("dirty=true");
    assertThat(response.headers().firstValue(NAME)).isPresent();
  }

  @Test
  void rejectsAMalformedHeaderWithAProblem() throws Exception {
    HttpResponse<String> response = get("/write", "default=not a token; DROP TABLE t");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(response.body())
        .isEqualTo(
            "{\"type\":\"urn:tidemark:problem:malformed\","
                + "\"title\":\"Consistency token rejected\",\"status\":400,"
                + "\"detail\":\"The consistency token was rejected.\",\"instance\":\"/write\","
                + "\"reason\":\"MALFORMED\"}");
    assertThat(response.headers().firstValue(NAME)).isEmpty();
  }

  @Test
  void rejectsAnOversizedHeaderBeforeReadingIt() throws Exception {
    HttpResponse<String> response = get("/context", "default=" + "a".repeat(6000));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("\"reason\":\"TOO_LARGE\"");
  }

  @Test
  void answersARefusedReadWith503RetryAfterAndTheToken() throws Exception {
    HttpResponse<String> response = get("/refused?gtids=" + B + ":3", header("default", A + ":1"));

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(response.body()).contains("\"status\":503", "\"reason\":\"WAIT_TIMEOUT\"");
    assertThat(response.body()).doesNotContain("replica-uuid");
    carries(response, A + ":1," + B + ":3");
  }

  @Test
  void answersLostWritesOnceNamingThemWithATokenThatNoLongerRequiresThem() throws Exception {
    HttpResponse<String> response =
        get("/lost?lost=" + B + ":4-5", header("default", A + ":1," + B + ":1-5"));

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body())
        .contains("\"reason\":\"TOKEN_NOT_ON_SOURCE\"", "\"lost\":\"" + B + ":4-5\"");
    carries(response, A + ":1," + B + ":1-3");
  }

  @Test
  void findsARefusedReadWrappedInAnotherException() throws Exception {
    HttpResponse<String> response = get("/refused-wrapped?gtids=" + B + ":3", null);

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body()).contains("\"reason\":\"DATABASE_BUSY\"");
    carries(response, B + ":3");
  }

  @Test
  void answersAReadWithATokenOfUnknownSourcesWith400() throws Exception {
    HttpResponse<String> response = get("/unknown-source", null);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    assertThat(response.body()).contains("\"reason\":\"TOKEN_REJECTED\"");
  }

  @Test
  void writesTheTokenOnAnErrorResponse() throws Exception {
    answered(
        get("/boom?gtids=" + B + ":4", header("default", A + ":1")), 500, A + ":1," + B + ":4");
  }

  @Test
  void writesTheTokenWhenTheResponseIsCommittedNotAtTheFirstByte() throws Exception {
    HttpResponse<String> response = get("/late-write?first=" + A + ":1&later=" + B + ":2", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).hasSize(5 + WebTestApplication.LARGE);
    carries(response, A + ":1," + B + ":2");
  }

  @Test
  void writesTheTokenOfABodyWrittenInLineSeparatorsPastTheBuffer() throws Exception {
    HttpResponse<String> response = get("/lines?gtids=" + A + ":1", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).hasSize(WebTestApplication.LARGE * System.lineSeparator().length());
    carries(response, A + ":1");
  }

  @Test
  void writesTheTokenOfAStreamedBodyIncludingWritesOnTheStreamingThread() throws Exception {
    HttpResponse<String> response = get("/stream?first=" + A + ":1&later=" + B + ":2", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).hasSize(WebTestApplication.LARGE);
    carries(response, A + ":1," + B + ":2");
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aWriteAfterAStreamedAnswerWasCommittedIsSaidNotToBeCovered(CapturedOutput output)
      throws Exception {
    HttpResponse<String> response = get("/stream-then-write?later=" + B + ":2", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue(NAME)).isEmpty();
    assertThat(output)
        .contains("WARN")
        .contains("GET /stream-then-write committed writes after its answer's token was sent");
  }

  @Test
  void writesTheTokenAfterAnAsyncDispatch() throws Exception {
    HttpResponse<String> response = get("/callable?first=" + A + ":1&later=" + B + ":2", null);

    assertThat(response.body()).isEqualTo("done");
    carries(response, A + ":1," + B + ":2");
  }

  @Test
  void answersADirtyContextWithoutASourceToAskWithAMarkerAndStillForwardsOthers() throws Exception {
    String paymentsHeader =
        header(TestTokens.codec(TestTokens.OTHER_SECRET), "payments", B + ":1-3");
    HttpResponse<String> response =
        get("/dirty?gtids=" + A + ":9", header("default", A + ":1-5") + ", " + paymentsHeader);

    assertThat(response.statusCode()).isEqualTo(200);
    ConsistencyHeader answer = TestTokens.codec().parseHeader(token(response));
    assertThat(answer.clusters()).containsExactly("default", "payments");
    ConsistencyToken own = TestTokens.codec().verify(answer, "default").orElseThrow();
    assertThat(own.requiresSource()).isTrue();
    assertThat(own.gtids()).isEqualTo(gtids(A + ":1-5:9"));
  }

  @Test
  void aRequestUnderAMarkerReadsFromTheSource() throws Exception {
    TokenCodec codec = TestTokens.codec();
    ConsistencyToken marker = codec.issue("default", gtids(A + ":1-5")).requiringSource();
    String value = codec.withToken(ConsistencyHeader.EMPTY, marker).toString();

    HttpResponse<String> response = get("/context", value);

    assertThat(response.body()).startsWith(A + ":1-5 dirty=true budget=");
  }

  @Test
  void sendsNoHeaderWhenThereIsNothingToSend() throws Exception {
    HttpResponse<String> response = get("/context", null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue(NAME)).isEmpty();
  }

  static HttpResponse<String> get(String path, @Nullable String token)
      throws IOException, InterruptedException {
    return server.get(path, NAME, token);
  }

  /** Checks {@code response} has {@code status} and carries a token of just {@code expected}. */
  private static void answered(HttpResponse<?> response, int status, String expected) {
    assertThat(response.statusCode()).isEqualTo(status);
    carries(response, expected);
  }

  /** Checks {@code response} carries a verified token of just the GTID set {@code expected}. */
  private static void carries(HttpResponse<?> response, String expected) {
    assertThat(verified(token(response))).isEqualTo(gtids(expected));
  }

  static String token(HttpResponse<?> response) {
    return response
        .headers()
        .firstValue(NAME)
        .orElseThrow(() -> new AssertionError("no " + NAME + " header in " + response.headers()));
  }
}

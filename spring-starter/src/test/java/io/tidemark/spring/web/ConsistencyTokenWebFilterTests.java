package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static io.tidemark.spring.autoconfigure.TestTokens.verified;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.Ticker;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The reactive token filter in front of handlers that do their blocking work on {@code
 * Schedulers.boundedElastic()}, as reads under {@code @ReadYourWrites} must: the same rules as the
 * servlet filter for header, cookie, bad tokens, refused reads and the answer's token.
 */
class ConsistencyTokenWebFilterTests {

  private static final String NAME = "Consistency-Token";

  @BeforeAll
  static void propagateContexts() {
    Hooks.enableAutomaticContextPropagation();
  }

  @AfterAll
  static void stopPropagating() {
    Hooks.disableAutomaticContextPropagation();
  }

  @Test
  void aBlockingHandlerRunsInTheContextOfTheVerifiedTokenWithTheRequestBudget() {
    String body =
        get(
                client(web -> web.setRequestTimeout(Duration.ofSeconds(30))),
                "/context",
                token(A + ":1-5"))
            .getResponseBody();

    assertThat(body).startsWith("boundedElastic " + A + ":1-5 dirty=false budget=");
    long budget = Long.parseLong(body.substring(body.indexOf("budget=") + 7));
    assertThat(budget).isBetween(1L, 30_000L);
  }

  @Test
  void answersWithTheMergedTokenOfRequestAndWritesOnOtherThreads() {
    EntityExchangeResult<String> response =
        get(client(web -> {}), "/write?gtids=" + B + ":7", token(A + ":1-5"));

    assertThat(response.getStatus().value()).isEqualTo(200);
    assertThat(verified(response.getResponseHeaders().getFirst(NAME)))
        .isEqualTo(gtids(A + ":1-5," + B + ":7"));
  }

  @Test
  void aRequestWithoutTokenOrWritesGetsNone() {
    EntityExchangeResult<String> response = get(client(web -> {}), "/context", null);

    assertThat(response.getResponseBody()).startsWith("boundedElastic  dirty=false budget=none");
    assertThat(response.getResponseHeaders().get(NAME)).isNull();
  }

  @Test
  void forwardsTheTokensOfOtherClustersUntouched() {
    TokenCodec payments = TestTokens.codec(TestTokens.OTHER_SECRET);
    String paymentsHeader = header(payments, "payments", B + ":1-3");

    String answer =
        get(
                client(web -> {}),
                "/write?gtids=" + A + ":9",
                token(A + ":1-5") + ", " + paymentsHeader)
            .getResponseHeaders()
            .getFirst(NAME);

    ConsistencyHeader parsed = TestTokens.codec().parseHeader(answer);
    assertThat(parsed.clusters()).containsExactly("default", "payments");
    assertThat(parsed.tokens("payments"))
        .containsExactly(payments.parseHeader(paymentsHeader).tokens("payments").get(0));
    assertThat(verified(answer)).isEqualTo(gtids(A + ":1-5:9"));
  }

  @Test
  void rejectsAMalformedHeaderWithAProblem() {
    EntityExchangeResult<String> response =
        get(client(web -> {}), "/write?gtids=" + A + ":9", "default=not a token");

    assertThat(response.getStatus().value()).isEqualTo(400);
    assertThat(response.getResponseHeaders().getContentType())
        .hasToString("application/problem+json");
    assertThat(response.getResponseBody())
        .contains("\"status\":400", "\"reason\":\"MALFORMED\"", "\"instance\":\"/write\"");
    assertThat(response.getResponseHeaders().get(NAME)).isNull();
  }

  @Test
  void rejectsALevelThatDoesNotExistWithAProblem() {
    EntityExchangeResult<String> response =
        client(web -> {})
            .get()
            .uri("/write?gtids=" + A + ":9")
            .header("Consistency-Level", "strong")
            .exchange()
            .expectBody(String.class)
            .returnResult();

    assertThat(response.getStatus().value()).isEqualTo(400);
    assertThat(response.getResponseHeaders().getContentType())
        .hasToString("application/problem+json");
    assertThat(response.getResponseBody()).contains("SESSION, GLOBAL, BOUNDED or EVENTUAL");
  }

  @Test
  void aTokenSignedWithAnotherSecretSendsTheReadsToTheSourceNotA400() {
    String forged = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    EntityExchangeResult<String> response = get(client(web -> {}), "/context", forged);

    assertThat(response.getStatus().value()).isEqualTo(200);
    assertThat(response.getResponseBody()).startsWith("boundedElastic  dirty=true");
    assertThat(response.getResponseHeaders().get(NAME)).isNotNull();
  }

  @Test
  void goesOnReadingTheSourceWithATokenThatDoesNotVerifyWhenToldToIgnoreIt() {
    String forged = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    EntityExchangeResult<String> response =
        get(
            client(web -> web.setInvalidToken(TidemarkWebProperties.InvalidToken.IGNORE)),
            "/context",
            forged);

    assertThat(response.getStatus().value()).isEqualTo(200);
    assertThat(response.getResponseBody()).startsWith("boundedElastic  dirty=true");
  }

  @Test
  void aRefusedReadIsA503ProblemAndTheAnswerStillCarriesTheToken() {
    EntityExchangeResult<String> response =
        get(client(web -> {}), "/refused?gtids=" + B + ":7", token(A + ":1-5"));

    assertThat(response.getStatus().value()).isEqualTo(503);
    assertThat(response.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
    assertThat(response.getResponseBody()).contains("\"reason\":\"WAIT_TIMEOUT\"");
    assertThat(verified(response.getResponseHeaders().getFirst(NAME)))
        .isEqualTo(gtids(A + ":1-5," + B + ":7"));
  }

  @Test
  void aDirtyContextWhoseSourceCannotBeAskedIsAnsweredWithAMarkerRequiringTheSource() {
    String answer =
        get(client(web -> {}), "/dirty", token(A + ":1-5")).getResponseHeaders().getFirst(NAME);

    TokenCodec codec = TestTokens.codec();
    assertThat(codec.verify(codec.parseHeader(answer), "default").orElseThrow().requiresSource())
        .isTrue();
  }

  @Test
  void readsTheCookieAndAnswersWithThisClustersEntry() {
    WebTestClient client = client(web -> web.getCookie().setName("tidemark"));

    EntityExchangeResult<String> response =
        client
            .get()
            .uri("/write?gtids=" + B + ":7")
            .cookie("tidemark", token(A + ":1-5"))
            .exchange()
            .expectBody(String.class)
            .returnResult();

    assertThat(verified(response.getResponseHeaders().getFirst(NAME)))
        .isEqualTo(gtids(A + ":1-5," + B + ":7"));
    ResponseCookie cookie = response.getResponseCookies().getFirst("tidemark");
    assertThat(cookie).isNotNull();
    assertThat(verified(cookie.getValue())).isEqualTo(gtids(A + ":1-5," + B + ":7"));
    assertThat(cookie.isHttpOnly()).isTrue();
    assertThat(cookie.getSameSite()).isEqualTo("Lax");
    assertThat(cookie.getPath()).isEqualTo("/");
    assertThat(cookie.getMaxAge()).isPositive();
  }

  @Test
  void withNothingConfiguredTheClustersCookieIsSetOnlyWhenTheAnswerCarriesSomethingNew() {
    WebTestClient client = client(web -> {});

    EntityExchangeResult<String> written =
        client
            .get()
            .uri("/write?gtids=" + B + ":8")
            .exchange()
            .expectBody(String.class)
            .returnResult();
    ResponseCookie cookie = written.getResponseCookies().getFirst("Consistency-Token-default");
    assertThat(cookie).isNotNull();
    assertThat(verified(cookie.getValue())).isEqualTo(gtids(B + ":8"));

    EntityExchangeResult<String> viewed =
        client
            .get()
            .uri("/context")
            .cookie(cookie.getName(), cookie.getValue())
            .exchange()
            .expectBody(String.class)
            .returnResult();
    assertThat(viewed.getResponseBody()).contains(B + ":8");
    assertThat(viewed.getResponseCookies()).isEmpty();
  }

  @Test
  void aCookieThatDoesNotVerifySendsTheReadsToTheSourceAndIsReplacedNotAnswered400() {
    String stale = header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", A + ":1-5");

    EntityExchangeResult<String> response =
        client(web -> web.getCookie().setName("tidemark"))
            .get()
            .uri("/context")
            .cookie("tidemark", stale)
            .exchange()
            .expectBody(String.class)
            .returnResult();

    assertThat(response.getStatus().value()).isEqualTo(200);
    assertThat(response.getResponseBody()).startsWith("boundedElastic  dirty=true");
    ResponseCookie replaced = response.getResponseCookies().getFirst("tidemark");
    assertThat(replaced).isNotNull();
    assertThat(replaced.getValue()).startsWith("default=").isNotEqualTo(stale);
    assertThat(replaced.getMaxAge()).isPositive();
  }

  @Test
  void withoutAutomaticContextPropagationTheHandlersThreadHasNoContext() {
    Hooks.disableAutomaticContextPropagation();
    try {
      assertThat(get(client(web -> {}), "/context", token(A + ":1-5")).getResponseBody())
          .isEqualTo("boundedElastic none");
    } finally {
      Hooks.enableAutomaticContextPropagation();
    }
  }

  private static EntityExchangeResult<String> get(WebTestClient client, String uri, String token) {
    WebTestClient.RequestHeadersSpec<?> request = client.get().uri(uri);
    if (token != null) {
      request.header(NAME, token);
    }
    return request.exchange().expectBody(String.class).returnResult();
  }

  private static String token(String gtids) {
    return header("default", gtids);
  }

  private static WebTestClient client(Consumer<TidemarkWebProperties> settings) {
    TidemarkProperties properties = TestTokens.properties();
    TidemarkWebProperties web = new TidemarkWebProperties();
    settings.accept(web);
    TokenExchange exchange =
        TestTokens.exchange(web.getHeader(), properties.getToken().getCoverTimeout());
    ConsistencyTokenWebFilter filter =
        new ConsistencyTokenWebFilter(
            new RequestTokens(
                exchange, web, Duration.ofMinutes(10), Ticker.systemTicker(), uuid -> uuid),
            new ConsistencyProblems(
                new RetryAfter(() -> null, web.getRetryAfter(), web.getMaxRetryAfter())),
            web.getFilterOrder());
    return WebTestClient.bindToRouterFunction(routes()).webFilter(filter).build();
  }

  private static RouterFunction<ServerResponse> routes() {
    return RouterFunctions.route()
        .GET(
            "/context", request -> ok(blocking(() -> describe(ConsistencyContext.currentOrNull()))))
        .GET(
            "/write",
            request ->
                ok(
                    blocking(
                        () -> {
                          ConsistencyContext context = bound();
                          context.merge(GtidSet.parse(request.queryParam("gtids").orElseThrow()));
                          return context.gtids().toString();
                        })))
        .GET(
            "/dirty",
            request ->
                ok(
                    blocking(
                        () -> {
                          bound().markDirty("a write without a captured GTID");
                          return "dirty";
                        })))
        .GET(
            "/refused",
            request ->
                ok(
                    blocking(
                        () -> {
                          GtidSet read = GtidSet.parse(request.queryParam("gtids").orElseThrow());
                          bound().merge(read);
                          throw new IllegalStateException(
                              "repository failed",
                              ConsistentReadException.of(
                                  Reason.WAIT_TIMEOUT,
                                  read,
                                  "replica",
                                  Duration.ofMillis(5),
                                  "replica did not catch up"));
                        })))
        .build();
  }

  /** Blocking work as a handler must run it: off the event loop, on another thread. */
  private static Mono<String> blocking(Callable<String> work) {
    return Mono.fromCallable(
            () -> Thread.currentThread().getName().replaceAll("-\\d+$", "") + " " + work.call())
        .subscribeOn(Schedulers.boundedElastic());
  }

  private static Mono<ServerResponse> ok(Mono<String> body) {
    return ServerResponse.ok().body(body, String.class);
  }

  private static ConsistencyContext bound() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    if (context == null) {
      throw new AssertionError("no consistency context bound on " + Thread.currentThread());
    }
    return context;
  }

  private static String describe(ConsistencyContext context) {
    if (context == null) {
      return "none";
    }
    Deadline deadline = context.deadline();
    return context.gtids()
        + " dirty="
        + context.isDirty()
        + " budget="
        + (deadline == null ? "none" : deadline.remaining().toMillis());
  }
}

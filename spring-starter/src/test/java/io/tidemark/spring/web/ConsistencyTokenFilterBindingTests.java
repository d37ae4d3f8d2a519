package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.Ticker;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import jakarta.servlet.FilterChain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** What the filter binds to the request thread, and that it unbinds all of it however it ends. */
class ConsistencyTokenFilterBindingTests {

  private final List<String> seen = new ArrayList<>();

  @AfterEach
  void nothingStaysBound() {
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void bindsContextBudgetAndForwardedTokensWhileTheRequestRuns() throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();

    filter().doFilter(request(), response, recording());

    assertThat(seen).containsExactly("context", "budget", "forwarded");
    assertThat(response.getHeader("Consistency-Token")).isNotNull();
  }

  @Test
  void unbindsWhenTheApplicationThrows() {
    FilterChain failing =
        (request, response) -> {
          recording().doFilter(request, response);
          throw new IllegalStateException("application failed");
        };

    assertThatThrownBy(() -> filter().doFilter(request(), new MockHttpServletResponse(), failing))
        .hasMessage("application failed");
    assertThat(seen).containsExactly("context", "budget", "forwarded");
  }

  @Test
  void theReadsOfARequestAboutToWriteGoToTheSourceUnlessToldOtherwise() throws Exception {
    for (String method : List.of("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")) {
      for (TidemarkWebProperties.UnsafeMethodReads reads :
          TidemarkWebProperties.UnsafeMethodReads.values()) {
        List<String> intents = new ArrayList<>();
        filter(reads)
            .doFilter(
                new MockHttpServletRequest(method, "/orders/1"),
                new MockHttpServletResponse(),
                (request, response) ->
                    intents.add(String.valueOf(ConsistencyContext.current().writeIntent())));

        boolean unsafe = !List.of("GET", "HEAD", "OPTIONS").contains(method);
        assertThat(intents)
            .as("%s with unsafe-method-reads %s", method, reads)
            .containsExactly(
                unsafe && reads == TidemarkWebProperties.UnsafeMethodReads.SOURCE
                    ? "a " + method + " request"
                    : "null");
      }
    }
  }

  private FilterChain recording() {
    return (request, response) -> {
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      if (context != null) {
        seen.add("context");
        if (context.deadline() != null) {
          seen.add("budget");
        }
        if (!context.forwardedTokens().isEmpty()) {
          seen.add("forwarded");
        }
      }
    };
  }

  private static MockHttpServletRequest request() {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/orders/1");
    request.addHeader(
        "Consistency-Token",
        TestTokens.header("default", TestTokens.A + ":1")
            + ", "
            + TestTokens.header("payments", TestTokens.B + ":7"));
    return request;
  }

  private static ConsistencyTokenFilter filter() {
    return filter(TidemarkWebProperties.UnsafeMethodReads.SOURCE);
  }

  private static ConsistencyTokenFilter filter(TidemarkWebProperties.UnsafeMethodReads reads) {
    TidemarkProperties properties = TestTokens.properties();
    TidemarkWebProperties web = new TidemarkWebProperties();
    web.setRequestTimeout(Duration.ofSeconds(5));
    web.setUnsafeMethodReads(reads);
    return new ConsistencyTokenFilter(
        new RequestTokens(
            TestTokens.exchange(web.getHeader(), properties.getToken().getCoverTimeout()),
            web,
            Duration.ofMinutes(10),
            Ticker.systemTicker(),
            uuid -> uuid),
        new ConsistencyProblems(
            new RetryAfter(() -> null, Duration.ofSeconds(1), Duration.ofSeconds(30))));
  }
}

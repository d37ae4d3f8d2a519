package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.Ticker;
import jakarta.servlet.FilterChain;
import java.sql.SQLException;
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
    assertThat(RequestBudget.current()).isNull();
    assertThat(ForwardedTokens.current()).isNull();
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

  private FilterChain recording() {
    return (request, response) -> {
      if (ConsistencyContext.currentOrNull() != null) {
        seen.add("context");
      }
      if (RequestBudget.current() != null) {
        seen.add("budget");
      }
      if (ForwardedTokens.current() != null) {
        seen.add("forwarded");
      }
    };
  }

  private static MockHttpServletRequest request() {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/orders/1");
    request.addHeader("Consistency-Token", TestTokens.header("default", TestTokens.A + ":1"));
    return request;
  }

  private static ConsistencyTokenFilter filter() {
    TidemarkProperties properties = TestTokens.properties();
    properties.getWeb().setRequestTimeout(Duration.ofSeconds(5));
    return new ConsistencyTokenFilter(
        new TokenHeaders(
            TestTokens.codec(),
            properties.getCluster(),
            properties.getWeb().getHeader(),
            properties.getToken().getCoverTimeout(),
            timeout -> {
              throw new SQLException("no source in this test");
            }),
        new ConsistencyProblems(Duration.ofSeconds(1)),
        properties.getWeb(),
        Duration.ofMinutes(10),
        Ticker.systemTicker());
  }
}

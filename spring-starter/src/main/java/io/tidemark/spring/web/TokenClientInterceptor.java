package io.tidemark.spring.web;

import io.tidemark.token.TokenExchange;
import java.io.IOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Sends the current context's token, and the request's tokens of other clusters, on calls made with
 * {@code RestClient} or {@code RestTemplate}, and merges the token the called service answers with
 * into the context, so that reads after the call see what the called service wrote. A header the
 * caller set on the request itself is left as it is.
 */
final class TokenClientInterceptor implements ClientHttpRequestInterceptor {

  private final TokenExchange exchange;

  TokenClientInterceptor(TokenExchange exchange) {
    this.exchange = exchange;
  }

  @Override
  public ClientHttpResponse intercept(
      HttpRequest request, byte[] body, ClientHttpRequestExecution execution) throws IOException {
    TokenExchange.Outgoing outgoing = exchange.outgoing();
    if (outgoing == null) {
      return execution.execute(request, body);
    }
    String value = outgoing.value();
    if (value != null && !request.getHeaders().containsHeader(exchange.headerName())) {
      request.getHeaders().set(exchange.headerName(), value);
    }
    ClientHttpResponse response = execution.execute(request, body);
    outgoing.answered(response.getHeaders().get(exchange.headerName()));
    return response;
  }
}

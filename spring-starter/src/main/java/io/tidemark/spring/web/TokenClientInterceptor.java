package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.token.TokenExchange;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Sends the current context's token, and the request's tokens of other clusters, on calls made with
 * {@code RestClient} or {@code RestTemplate}, and merges the token the called service answers with
 * into the context, so that reads after the call see what the called service wrote. A header the
 * caller set on the request itself is left as it is.
 *
 * <p>A call that may have written downstream (any method but GET, HEAD, OPTIONS and TRACE) and got
 * no answer (a read timeout, a reset connection: an {@link IOException}), or a 5xx without a token,
 * marks the context dirty before the failure goes on unchanged: see {@link UncertainCalls}.
 */
final class TokenClientInterceptor implements ClientHttpRequestInterceptor {

  private final TokenExchange exchange;

  TokenClientInterceptor(TokenExchange exchange) {
    this.exchange = exchange;
  }

  @Override
  public ClientHttpResponse intercept(
      HttpRequest request, byte[] body, ClientHttpRequestExecution execution) throws IOException {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    TokenExchange.Outgoing outgoing = exchange.outgoing(context);
    if (outgoing == null) {
      return execution.execute(request, body);
    }
    String value = outgoing.value();
    if (value != null && request.getHeaders().getFirst(exchange.headerName()) == null) {
      request.getHeaders().set(exchange.headerName(), value);
    }
    String method = request.getMethod().name();
    ClientHttpResponse response;
    try {
      response = execution.execute(request, body);
    } catch (IOException e) {
      UncertainCalls.unanswered(context, method, request.getURI(), e);
      throw e;
    }
    List<String> fields = response.getHeaders().get(exchange.headerName());
    outgoing.answered(fields);
    UncertainCalls.answered(
        context,
        method,
        request.getURI(),
        response.getStatusCode().value(),
        fields != null && !fields.isEmpty());
    return response;
  }
}

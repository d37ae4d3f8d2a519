package io.tidemark.spring.autoconfigure;

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

  private final TokenHeaders headers;

  TokenClientInterceptor(TokenHeaders headers) {
    this.headers = headers;
  }

  @Override
  public ClientHttpResponse intercept(
      HttpRequest request, byte[] body, ClientHttpRequestExecution execution) throws IOException {
    TokenHeaders.Outgoing outgoing = headers.outgoing();
    if (outgoing == null) {
      return execution.execute(request, body);
    }
    String value = outgoing.value();
    if (value != null && !request.getHeaders().containsHeader(headers.name())) {
      request.getHeaders().set(headers.name(), value);
    }
    ClientHttpResponse response = execution.execute(request, body);
    outgoing.answered(response.getHeaders().get(headers.name()));
    return response;
  }
}

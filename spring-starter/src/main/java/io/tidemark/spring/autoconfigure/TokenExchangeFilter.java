package io.tidemark.spring.autoconfigure;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Does for {@code WebClient} what {@link TokenClientInterceptor} does for the blocking clients. The
 * context is the one bound to the thread that subscribes, as in a servlet request that calls {@code
 * block()} or hands the call to an executor with the task decorator; an exchange subscribed on a
 * thread without a context sends and merges nothing.
 */
final class TokenExchangeFilter implements ExchangeFilterFunction {

  private final TokenHeaders headers;

  TokenExchangeFilter(TokenHeaders headers) {
    this.headers = headers;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.defer(
        () -> {
          TokenHeaders.Outgoing outgoing = headers.outgoing();
          if (outgoing == null) {
            return next.exchange(request);
          }
          String value = outgoing.value();
          ClientRequest sent =
              value == null || request.headers().containsHeader(headers.name())
                  ? request
                  : ClientRequest.from(request).header(headers.name(), value).build();
          return next.exchange(sent)
              .doOnNext(response -> outgoing.answered(response.headers().header(headers.name())));
        });
  }
}

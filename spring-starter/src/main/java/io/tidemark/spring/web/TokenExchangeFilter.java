package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.token.TokenExchange;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Does for {@code WebClient} what {@link TokenClientInterceptor} does for the blocking clients. The
 * context is the one the exchange's Reactor {@code Context} holds under {@link
 * ConsistencyContextAccessor#KEY}, as in a call a WebFlux handler returns; else the one bound to
 * the thread that subscribes, as in a servlet request that calls {@code block()} or hands the call
 * to an executor with the task decorator. An exchange without either sends and merges nothing.
 */
final class TokenExchangeFilter implements ExchangeFilterFunction {

  private final TokenExchange exchange;

  TokenExchangeFilter(TokenExchange exchange) {
    this.exchange = exchange;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.deferContextual(
        reactor -> {
          TokenExchange.Outgoing outgoing =
              exchange.outgoing(
                  reactor.getOrDefault(
                      ConsistencyContextAccessor.KEY, ConsistencyContext.currentOrNull()));
          if (outgoing == null) {
            return next.exchange(request);
          }
          String value = outgoing.value();
          ClientRequest sent =
              value == null || request.headers().containsHeader(exchange.headerName())
                  ? request
                  : ClientRequest.from(request).header(exchange.headerName(), value).build();
          return next.exchange(sent)
              .doOnNext(
                  response -> outgoing.answered(response.headers().header(exchange.headerName())));
        });
  }
}

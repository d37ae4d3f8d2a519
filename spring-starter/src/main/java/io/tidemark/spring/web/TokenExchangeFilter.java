package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.token.TokenExchange;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *
 * <p>A call that may have written downstream (any method but GET, HEAD, OPTIONS and TRACE) that
 * ends without an answer, with an error or cancelled before its answer came (a {@code timeout}
 * operator), or is answered with a 5xx without a token, marks the context dirty: see {@link
 * UncertainCalls}. The error goes on unchanged.
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
          ConsistencyContext context =
              reactor.getOrDefault(
                  ConsistencyContextAccessor.KEY, ConsistencyContext.currentOrNull());
          TokenExchange.Outgoing outgoing = exchange.outgoing(context);
          if (outgoing == null) {
            return next.exchange(request);
          }
          String value = outgoing.value();
          ClientRequest sent =
              value == null || request.headers().getFirst(exchange.headerName()) != null
                  ? request
                  : ClientRequest.from(request).header(exchange.headerName(), value).build();
          String method = request.method().name();
          // Set once the call has its answer or its error: a cancel before either (a timeout
          // operator downstream, a zip whose other call failed) leaves its outcome unknown.
          AtomicBoolean settled = new AtomicBoolean();
          return next.exchange(sent)
              .doOnNext(
                  response -> {
                    settled.set(true);
                    List<String> fields = response.headers().header(exchange.headerName());
                    outgoing.answered(fields);
                    UncertainCalls.answered(
                        context,
                        method,
                        request.url(),
                        response.statusCode().value(),
                        !fields.isEmpty());
                  })
              .doOnError(
                  failure -> {
                    if (settled.compareAndSet(false, true)) {
                      UncertainCalls.unanswered(context, method, request.url(), failure);
                    }
                  })
              .doOnCancel(
                  () -> {
                    if (settled.compareAndSet(false, true)) {
                      UncertainCalls.unanswered(
                          context, method, request.url(), new CancellationException());
                    }
                  });
        });
  }
}

package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.token.TokenRejectedException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.ErrorResponse;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

/**
 * The {@link ConsistencyTokenFilter} of a reactive server, with the same {@link RequestTokens
 * rules}: a token of the cluster that does not verify sends the request's reads to the source, a
 * header that is no token gets a 400 problem (or the same), and the merged token goes into the
 * response just before it is committed.
 *
 * <p>The request's context is in the Reactor {@code Context} under {@link
 * ConsistencyContextAccessor#KEY}, not on a thread: a request hops between threads, and Reactor's
 * automatic context propagation binds it on whichever runs the chain, so that a blocking read under
 * {@code @ReadYourWrites} on {@code Schedulers.boundedElastic()} waits for the request's writes.
 * Without that propagation the start stops, since no read would wait.
 *
 * <p>A consistency outcome the handler fails with (a refused read, also one wrapped in another
 * exception) is answered with its problem rather than by the server's error handling, as long as
 * nothing was sent yet.
 */
final class ConsistencyTokenWebFilter implements WebFilter, Ordered {

  private final RequestTokens tokens;
  private final ConsistencyProblems problems;
  private final int order;

  ConsistencyTokenWebFilter(RequestTokens tokens, ConsistencyProblems problems, int order) {
    this.tokens = tokens;
    this.problems = problems;
    this.order = order;
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    RequestTokens.Request opened;
    try {
      opened =
          tokens.open(
              request.getMethod().name(),
              RequestTokens.join(request.getHeaders().get(tokens.headerName())),
              cookieValue(request),
              request.getHeaders().getFirst(tokens.levelHeaderName()));
    } catch (TokenRejectedException e) {
      return answer(exchange, Objects.requireNonNull(problems.problemFor(e, null)));
    } catch (ErrorResponseException e) {
      return answer(exchange, e);
    }
    ConsistencyContext context = opened.context();
    ServerHttpResponse response = exchange.getResponse();
    response.beforeCommit(() -> writeToken(opened, request, response));
    return chain
        .filter(exchange)
        .onErrorResume(
            failure -> {
              ErrorResponse problem =
                  response.isCommitted() ? null : problems.problemFor(failure, context);
              if (problem == null) {
                return Mono.error(failure);
              }
              // What the handler had set was for the answer it did not give.
              response.getHeaders().clear();
              response.getCookies().clear();
              return answer(exchange, problem);
            })
        .contextWrite(Context.of(ConsistencyContextAccessor.KEY, context));
  }

  private @Nullable String cookieValue(ServerHttpRequest request) {
    String cookie = tokens.cookieName();
    List<HttpCookie> cookies = cookie == null ? null : request.getCookies().get(cookie);
    return cookies == null
        ? null
        : RequestTokens.join(cookies.stream().map(HttpCookie::getValue).toList());
  }

  private Mono<Void> writeToken(
      RequestTokens.Request opened, ServerHttpRequest request, ServerHttpResponse response) {
    boolean secure = "https".equalsIgnoreCase(request.getURI().getScheme());
    Mono<Void> write =
        Mono.fromRunnable(
            () ->
                tokens.answer(
                    opened,
                    secure,
                    new RequestTokens.Answer() {
                      @Override
                      public void setHeader(String name, String value) {
                        response.getHeaders().set(name, value);
                      }

                      @Override
                      public void addCookie(ResponseCookie cookie) {
                        response.addCookie(cookie);
                      }
                    }));
    ConsistencyContext context = opened.context();
    // Issuing the token may ask the source (a dirty context, one over the limits): a blocking
    // JDBC call, which must not run on the server's event loop.
    return context.isDirty() || !context.gtids().isEmpty()
        ? write.subscribeOn(Schedulers.boundedElastic())
        : write;
  }

  private static Mono<Void> answer(ServerWebExchange exchange, ErrorResponse problem) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(problem.getStatusCode());
    HttpHeaders headers = response.getHeaders();
    headers.addAll(problem.getHeaders());
    headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    byte[] body = ProblemJson.body(problem, exchange.getRequest().getPath().value());
    headers.setContentLength(body.length);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }
}

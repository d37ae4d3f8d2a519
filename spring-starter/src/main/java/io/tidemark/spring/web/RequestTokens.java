package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.Deadline;
import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseCookie;
import org.springframework.web.ErrorResponseException;

/**
 * The consistency header's rules for the requests the application serves, on any server: the
 * context a request starts with, from its header and cookie, and what its answer carries. The
 * servlet and the reactive filter only carry header fields and cookies between their own request
 * and response types and these rules.
 */
final class RequestTokens {

  /**
   * Names the scopes whose store did not take the request's committed writes: the writes and the
   * answer's token stand, but reads under those scopes elsewhere may miss them.
   */
  static final String UNRECORDED_SCOPES = "Consistency-Scope-Unrecorded";

  private static final Set<String> UNSAFE = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final TokenExchange exchange;
  private final TidemarkWebProperties web;
  private final Duration cookieMaxAge;
  private final Ticker ticker;
  private final Function<String, String> nodeNames;

  /**
   * @param cookieMaxAge how long the cookie lives: as long as the token it carries
   * @param nodeNames the configured node name of a {@code server_uuid}, for the read header
   */
  RequestTokens(
      TokenExchange exchange,
      TidemarkWebProperties web,
      Duration cookieMaxAge,
      Ticker ticker,
      Function<String, String> nodeNames) {
    this.exchange = exchange;
    this.web = web;
    this.cookieMaxAge = cookieMaxAge;
    this.ticker = ticker;
    this.nodeNames = nodeNames;
  }

  String headerName() {
    return exchange.headerName();
  }

  /** The name of the request header that chooses the level of the request's reads. */
  String levelHeaderName() {
    return web.getLevelHeader();
  }

  /**
   * The level a request's level header names, any case.
   *
   * @throws ErrorResponseException a 400 problem when it names none
   */
  static ConsistencyLevel level(String header) {
    for (ConsistencyLevel level : ConsistencyLevel.values()) {
      if (level.name().equalsIgnoreCase(header.strip())) {
        return level;
      }
    }
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.BAD_REQUEST,
            "The consistency level header names no level: SESSION, GLOBAL, BOUNDED or EVENTUAL.");
    problem.setTitle("Consistency level rejected");
    throw new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
  }

  /** The name of the cookie that also carries tokens, or {@code null} when it is off. */
  @Nullable String cookieName() {
    return web.getCookie().nameFor(exchange.cluster());
  }

  /**
   * The unbound context of a request that came with {@code header} and {@code cookie} (each its
   * fields or values {@linkplain #join joined}, or {@code null}): its verified tokens, the other
   * clusters' tokens and the request's deadline.
   *
   * <p>A token of this cluster that does not verify (signed before a restart with a random secret,
   * with a retired key, or too old for the clocks) makes the context dirty: its reads go to the
   * source, and the answer's token covers the source, replacing the cookie.
   *
   * <p>A request with an unsafe method (POST, PUT, PATCH, DELETE) is about to write: unless {@code
   * tidemark.web.unsafe-method-reads} is {@code replica}, its reads go to the source.
   *
   * @throws TokenRejectedException when the header is no token header at all (malformed, oversized)
   *     and {@code tidemark.web.invalid-token} is {@code reject}
   */
  Request open(
      String method, @Nullable String header, @Nullable String cookie, @Nullable String level) {
    TokenExchange.Incoming incoming =
        exchange.readLeniently(
            header, web.getInvalidToken() == TidemarkWebProperties.InvalidToken.REJECT);
    // The browser sends the cookie by itself, so whatever it holds is never answered 400.
    TokenExchange.Incoming fromCookie =
        cookie == null ? TokenExchange.Incoming.NONE : exchange.readLeniently(cookie, false);
    Duration timeout = web.getRequestTimeout();
    ConsistencyContext context =
        ConsistencyContext.create(
            GtidSet.EMPTY, timeout == null ? null : Deadline.after(timeout, ticker));
    context.shareWaits();
    if (level != null) {
      context.requestLevel(level(level));
    }
    incoming.applyTo(context);
    fromCookie.applyTo(context);
    if (web.getUnsafeMethodReads() == TidemarkWebProperties.UnsafeMethodReads.SOURCE
        && UNSAFE.contains(method)) {
      context.markWriteIntent("a " + method + " request");
    }
    return new Request(context, fromCookie.rejected() != null, fromCookie.own());
  }

  /**
   * A request's context, whether its answer clears a cookie that did not verify, and the token its
   * cookie carried, if any.
   */
  record Request(
      ConsistencyContext context, boolean clearCookie, @Nullable ConsistencyToken cookie) {

    /**
     * Whether the context holds what the cookie's token did, no more: its answer need not set the
     * cookie again.
     */
    boolean cookieCurrent() {
      return cookie != null
          && !cookie.requiresSource()
          && !context.isDirty()
          && context.gtids().equals(cookie.gtids())
          && context.lost().equals(cookie.lost());
    }
  }

  /** The response an answer's token goes into. */
  interface Answer {
    void setHeader(String name, String value);

    void addCookie(ResponseCookie cookie);
  }

  /**
   * Writes into {@code answer} the merged token of {@code request} and the other clusters' tokens,
   * the scopes whose store missed its writes, and the cookie ({@code Secure} when the request came
   * over {@code secure} connection). Covering a dirty context may ask the source.
   */
  void answer(Request request, boolean secure, Answer answer) {
    ConsistencyContext context = request.context();
    String own = exchange.ownToken(context);
    String value = exchange.headerValue(own, context.forwardedTokens());
    if (value != null) {
      answer.setHeader(exchange.headerName(), value);
    }
    if (!context.unrecordedScopes().isEmpty()) {
      answer.setHeader(UNRECORDED_SCOPES, String.join(", ", context.unrecordedScopes()));
    }
    String readHeader = web.getReadHeader();
    ExecutionRecord read = context.lastRead();
    if (readHeader != null && !readHeader.isBlank() && read != null) {
      answer.setHeader(
          readHeader,
          (read.node().isEmpty() ? "none" : nodeNames.apply(read.node()))
              + "; reason="
              + read.reason()
              + "; waited="
              + read.waited().toMillis()
              + "ms");
    }
    String cookie = cookieName();
    if (cookie != null && ((own != null && !request.cookieCurrent()) || request.clearCookie())) {
      // Only this cluster's entry: a cookie value cannot hold the list's commas.
      answer.addCookie(
          ResponseCookie.from(cookie, own != null ? exchange.cluster() + "=" + own : "")
              .path("/")
              .httpOnly(true)
              .secure(secure)
              .maxAge(own != null ? cookieMaxAge : Duration.ZERO)
              .sameSite("Lax")
              .build());
    }
  }

  /** Several header fields or cookie values as one header value; {@code null} for none. */
  static @Nullable String join(@Nullable Iterable<String> values) {
    StringBuilder joined = new StringBuilder();
    if (values != null) {
      for (String value : values) {
        if (!joined.isEmpty()) {
          joined.append(", ");
        }
        joined.append(value);
      }
    }
    return joined.isEmpty() ? null : joined.toString();
  }
}

package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Enumeration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request its {@link ConsistencyContext}: verifies the token the request carries in the
 * header (and the cookie, when one is configured), opens the context with its GTIDs, the request's
 * deadline and the other clusters' tokens, and writes the merged token into the response just
 * before it is committed.
 *
 * <p>A request whose header token does not verify gets a 400 problem, or goes on without the token
 * when {@code tidemark.web.invalid-token=ignore}. A cookie's token that does not verify is always
 * dropped and the cookie cleared: the browser sends it by itself, so a 400 would lock it out. A
 * consistency outcome that escapes the application (a refused read, also one wrapped in another
 * exception) is answered with its problem rather than a 500, as long as nothing was sent yet.
 *
 * <p>Runs on REQUEST and ASYNC dispatches: an async dispatch (the end of a {@code Callable} or
 * {@code DeferredResult}) binds the same context again, and the token is written when the last
 * dispatch ends or the streamed body first reaches the client. Not on ERROR dispatches: the
 * container's error page runs after the token was written (before {@code sendError}, or when the
 * exception left the filter), and must not verify the request's token a second time.
 */
final class ConsistencyTokenFilter extends OncePerRequestFilter {

  private static final String STATE = ConsistencyTokenFilter.class.getName() + ".STATE";

  /**
   * Names the scopes whose store did not take the request's committed writes: the writes and the
   * answer's token stand, but reads under those scopes elsewhere may miss them.
   */
  static final String UNRECORDED_SCOPES = "Consistency-Scope-Unrecorded";

  private final TokenExchange exchange;
  private final ConsistencyProblems problems;
  private final TidemarkProperties.Web web;
  private final Duration cookieMaxAge;
  private final Ticker ticker;

  ConsistencyTokenFilter(
      TokenExchange exchange,
      ConsistencyProblems problems,
      TidemarkProperties.Web web,
      Duration cookieMaxAge,
      Ticker ticker) {
    this.exchange = exchange;
    this.problems = problems;
    this.web = web;
    this.cookieMaxAge = cookieMaxAge;
    this.ticker = ticker;
  }

  @Override
  protected boolean shouldNotFilterAsyncDispatch() {
    return false;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (isAsyncDispatch(request)) {
      if (request.getAttribute(STATE) instanceof RequestState state) {
        run(state, request, response, chain);
      } else {
        chain.doFilter(request, response);
      }
      return;
    }
    TokenExchange.Incoming incoming;
    try {
      String value = headerValue(request);
      incoming =
          web.getInvalidToken() == TidemarkProperties.InvalidToken.REJECT
              ? exchange.read(value)
              : exchange.readIgnoringInvalid(value);
    } catch (TokenRejectedException e) {
      ProblemJson.write(request, response, Objects.requireNonNull(problems.problemFor(e)));
      return;
    }
    // A cookie the browser sends by itself: one that does not verify (signed before a restart
    // with a random secret, a retired key, expired) is dropped, never answered 400 for a day.
    TokenExchange.Incoming fromCookie = TokenExchange.Incoming.NONE;
    boolean badCookie = false;
    String cookieValue = cookieValue(request);
    if (cookieValue != null) {
      try {
        fromCookie = exchange.read(cookieValue);
      } catch (TokenRejectedException e) {
        badCookie = true;
      }
    }
    Duration timeout = web.getRequestTimeout();
    // run() binds the context on every dispatch's thread.
    ConsistencyContext context =
        ConsistencyContext.create(
            GtidSet.EMPTY, timeout == null ? null : Deadline.after(timeout, ticker));
    incoming.applyTo(context);
    fromCookie.applyTo(context);
    boolean clearCookie = badCookie;
    TokenResponseWrapper wrapper =
        new TokenResponseWrapper(
            response, () -> writeToken(request, response, context, clearCookie));
    RequestState state = new RequestState(context, wrapper);
    request.setAttribute(STATE, state);
    run(state, request, wrapper, chain);
  }

  private void run(
      RequestState state,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain)
      throws ServletException, IOException {
    try (ConsistencyContext.Binding binding = state.context().attach()) {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException e) {
      ErrorResponseException problem =
          state.wrapper().isCommitted() ? null : problems.problemFor(e);
      if (problem == null) {
        throw e;
      }
      state.wrapper().resetForNewAnswer();
      ProblemJson.write(request, state.wrapper(), problem);
    } finally {
      if (!request.isAsyncStarted()) {
        state.wrapper().beforeCommit();
      }
    }
  }

  private @Nullable String headerValue(HttpServletRequest request) {
    StringBuilder value = new StringBuilder();
    Enumeration<String> fields = request.getHeaders(exchange.headerName());
    while (fields != null && fields.hasMoreElements()) {
      append(value, fields.nextElement());
    }
    return value.isEmpty() ? null : value.toString();
  }

  private @Nullable String cookieValue(HttpServletRequest request) {
    StringBuilder value = new StringBuilder();
    String cookie = web.getCookie();
    Cookie[] cookies = cookie == null ? null : request.getCookies();
    if (cookies != null) {
      for (Cookie c : cookies) {
        if (c.getName().equals(cookie)) {
          append(value, c.getValue());
        }
      }
    }
    return value.isEmpty() ? null : value.toString();
  }

  private static void append(StringBuilder value, String field) {
    if (!value.isEmpty()) {
      value.append(", ");
    }
    value.append(field);
  }

  private void writeToken(
      HttpServletRequest request,
      HttpServletResponse response,
      ConsistencyContext context,
      boolean clearCookie) {
    String own = exchange.ownToken(context);
    String value = exchange.headerValue(own, context.forwardedTokens());
    if (value != null) {
      response.setHeader(exchange.headerName(), value);
    }
    if (!context.unrecordedScopes().isEmpty()) {
      response.setHeader(UNRECORDED_SCOPES, String.join(", ", context.unrecordedScopes()));
    }
    String cookie = web.getCookie();
    if (cookie != null && (own != null || clearCookie)) {
      // Only this cluster's entry: a cookie value cannot hold the list's commas.
      Cookie c = new Cookie(cookie, own != null ? exchange.cluster() + "=" + own : "");
      c.setPath("/");
      c.setHttpOnly(true);
      c.setSecure(request.isSecure());
      c.setMaxAge(own != null ? (int) Math.min(Integer.MAX_VALUE, cookieMaxAge.toSeconds()) : 0);
      c.setAttribute("SameSite", "Lax");
      response.addCookie(c);
    }
  }

  /** What every dispatch of one request shares. */
  private record RequestState(ConsistencyContext context, TokenResponseWrapper wrapper) {}
}

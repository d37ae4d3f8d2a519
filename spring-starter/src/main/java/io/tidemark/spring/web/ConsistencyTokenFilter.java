package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.token.TokenRejectedException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.web.ErrorResponse;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request its {@link ConsistencyContext}: verifies the token the request carries in the
 * header (and the cookie, when one is configured), opens the context with its GTIDs, the request's
 * deadline and the other clusters' tokens, and writes the merged token into the response just
 * before it is committed.
 *
 * <p>A token of the cluster that does not verify (another secret, a retired key, the clocks) sends
 * the request's reads to the source, and the answer's token replaces it. A header that is no token
 * at all gets a 400 problem, or the same when {@code tidemark.web.invalid-token=ignore}; a cookie
 * never gets a 400: the browser sends it by itself, so a 400 would lock it out. A consistency
 * outcome that escapes the application (a refused read, also one wrapped in another exception) is
 * answered with its problem rather than a 500, as long as nothing was sent yet.
 *
 * <p>Runs on REQUEST and ASYNC dispatches: an async dispatch (the end of a {@code Callable} or
 * {@code DeferredResult}) binds the same context again, and the token is written when the last
 * dispatch ends or the streamed body first reaches the client. Not on ERROR dispatches: the
 * container's error page runs after the token was written (before {@code sendError}, or when the
 * exception left the filter), and must not verify the request's token a second time.
 */
final class ConsistencyTokenFilter extends OncePerRequestFilter {

  private static final String STATE = ConsistencyTokenFilter.class.getName() + ".STATE";

  private static final Log log = LogFactory.getLog(ConsistencyTokenFilter.class);

  private final RequestTokens tokens;
  private final ConsistencyProblems problems;
  private final AtomicBoolean warnedNotCovered = new AtomicBoolean();

  ConsistencyTokenFilter(RequestTokens tokens, ConsistencyProblems problems) {
    this.tokens = tokens;
    this.problems = problems;
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
    RequestTokens.Request opened;
    try {
      Enumeration<String> fields = request.getHeaders(tokens.headerName());
      opened =
          tokens.open(
              request.getMethod(),
              RequestTokens.join(fields == null ? null : Collections.list(fields)),
              cookieValue(request),
              request.getHeader(tokens.levelHeaderName()));
    } catch (TokenRejectedException e) {
      write(request, response, Objects.requireNonNull(problems.problemFor(e)));
      return;
    } catch (ErrorResponseException e) {
      write(request, response, e);
      return;
    }
    // run() binds the context on every dispatch's thread.
    AtomicReference<@Nullable Answered> answered = new AtomicReference<>();
    TokenResponseWrapper wrapper =
        new TokenResponseWrapper(
            response,
            () -> {
              answered.set(new Answered(opened.context()));
              writeToken(request, response, opened);
            });
    RequestState state = new RequestState(opened.context(), wrapper, answered);
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
      write(request, state.wrapper(), problem);
    } finally {
      if (!request.isAsyncStarted()) {
        state.wrapper().beforeCommit();
        Answered answered = state.answered().get();
        if (answered != null && answered.missesWritesOf(state.context())) {
          notCovered(request);
        }
      }
    }
  }

  /**
   * Writes committed after the answer's token went out, as a streamed body's (a {@code
   * StreamingResponseBody}, an {@code SseEmitter}) past its first flush: no header can carry them
   * any more, so the client's next read may miss them. Said at WARN once, then at DEBUG.
   */
  private void notCovered(HttpServletRequest request) {
    String message =
        request.getMethod()
            + " "
            + request.getRequestURI()
            + " committed writes after its answer's token was sent (a streamed body past its"
            + " first flush): the token does not cover them, and the client's next read may miss"
            + " them. Commit before the body starts, or answer the writes in a request of their"
            + " own.";
    if (warnedNotCovered.compareAndSet(false, true)) {
      log.warn(message + " Said once.");
    } else if (log.isDebugEnabled()) {
      log.debug(message);
    }
  }

  private @Nullable String cookieValue(HttpServletRequest request) {
    String cookie = tokens.cookieName();
    Cookie[] cookies = cookie == null ? null : request.getCookies();
    if (cookies == null) {
      return null;
    }
    List<String> values = new ArrayList<>();
    for (Cookie c : cookies) {
      if (c.getName().equals(cookie)) {
        values.add(c.getValue());
      }
    }
    return RequestTokens.join(values);
  }

  private void writeToken(
      HttpServletRequest request, HttpServletResponse response, RequestTokens.Request opened) {
    tokens.answer(
        opened,
        request.isSecure(),
        new RequestTokens.Answer() {
          @Override
          public void setHeader(String name, String value) {
            response.setHeader(name, value);
          }

          @Override
          public void addCookie(ResponseCookie cookie) {
            Cookie c = new Cookie(cookie.getName(), cookie.getValue());
            c.setPath(cookie.getPath());
            c.setHttpOnly(cookie.isHttpOnly());
            c.setSecure(cookie.isSecure());
            c.setMaxAge((int) Math.min(Integer.MAX_VALUE, cookie.getMaxAge().toSeconds()));
            c.setAttribute("SameSite", cookie.getSameSite());
            response.addCookie(c);
          }
        });
  }

  /** What every dispatch of one request shares. */
  private record RequestState(
      ConsistencyContext context,
      TokenResponseWrapper wrapper,
      AtomicReference<@Nullable Answered> answered) {}

  /** What the context held when its answer's token was written. */
  private record Answered(GtidSet gtids, boolean dirty) {

    Answered(ConsistencyContext context) {
      this(context.gtids(), context.isDirty());
    }

    boolean missesWritesOf(ConsistencyContext context) {
      return !gtids.containsAll(context.gtids()) || (!dirty && context.isDirty());
    }
  }

  private static void write(
      HttpServletRequest request, HttpServletResponse response, ErrorResponse problem)
      throws IOException {
    response.setStatus(problem.getStatusCode().value());
    problem
        .getHeaders()
        .forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    byte[] body = ProblemJson.body(problem, request.getRequestURI());
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    response.flushBuffer();
  }
}

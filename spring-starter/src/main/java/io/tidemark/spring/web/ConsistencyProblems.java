package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.TidemarkException;
import io.tidemark.token.TokenRejectedException;
import io.tidemark.topology.NoWritableSourceException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Answers consistency outcomes with an RFC 9457 problem: a token that does not verify with 400, a
 * read that could not be served, or a write with no single writable source, with 503 and {@code
 * Retry-After}. The body names the reason code in {@code reason}; the exception's message, which
 * holds GTIDs and server UUIDs, is only logged.
 */
final class ConsistencyProblems {

  static final String MEDIA_TYPE = "application/problem+json";

  private static final Log log = LogFactory.getLog(ConsistencyProblems.class);
  private static final int MAX_CAUSES = 16;

  private final Duration retryAfter;

  ConsistencyProblems(Duration retryAfter) {
    this.retryAfter = retryAfter;
  }

  /**
   * A consistency outcome to answer: why, with which status and detail, the exception's own message
   * for the log, and the GTIDs of writes a failover lost, when the source could tell.
   */
  record Problem(Enum<?> reason, int status, String detail, String logged, GtidSet lost) {

    /** The problem for a token or read failure. */
    static Problem of(TidemarkException failure) {
      boolean badInput =
          failure instanceof TokenRejectedException || failure.reason() == Reason.TOKEN_REJECTED;
      GtidSet lost = failure instanceof ConsistentReadException read ? read.lost() : GtidSet.EMPTY;
      String detail =
          failure instanceof TokenRejectedException
              ? "The consistency token was rejected."
              : badInput
                  ? "The consistency token names a source this cluster does not know."
                  : !lost.isEmpty()
                      ? "Writes this token names were lost in a failover: the database no longer"
                          + " has them. The token in this answer no longer requires them."
                      : "The read could not be served with the consistency it requires in time.";
      return new Problem(failure.reason(), badInput ? 400 : 503, detail, failure.toString(), lost);
    }
  }

  /**
   * The consistency outcome {@code failure} is or was caused by: a {@link TokenRejectedException},
   * a {@link ConsistentReadException} or, for a write, a {@link NoWritableSourceException}; {@code
   * null} for anything else.
   */
  static @Nullable Problem find(@Nullable Throwable failure) {
    Throwable current = failure;
    for (int i = 0; current != null && i < MAX_CAUSES; i++) {
      if (current instanceof TokenRejectedException || current instanceof ConsistentReadException) {
        return Problem.of((TidemarkException) current);
      }
      if (current instanceof NoWritableSourceException noSource) {
        return new Problem(
            noSource.reason(),
            503,
            "No single database node accepts writes right now; retry shortly.",
            noSource.toString(),
            GtidSet.EMPTY);
      }
      current = current.getCause();
    }
    return null;
  }

  /**
   * Writes the problem for {@code failure}. A read refused because its token names a source the
   * cluster does not know is bad input like a token that does not verify, so it is a 400 too:
   * retrying would not help.
   */
  void write(HttpServletRequest request, HttpServletResponse response, TidemarkException failure)
      throws IOException {
    write(request, response, Problem.of(failure));
  }

  /** Writes {@code problem}; a 503 gets {@code Retry-After}. */
  void write(HttpServletRequest request, HttpServletResponse response, Problem problem)
      throws IOException {
    Answer answer = answer(problem, request.getRequestURI(), ConsistencyContext.currentOrNull());
    response.setStatus(answer.status());
    if (answer.retryAfter() != null) {
      response.setHeader("Retry-After", answer.retryAfter());
    }
    response.setContentType(MEDIA_TYPE);
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
    response.flushBuffer();
  }

  /**
   * What a server answers {@code problem} with, for a request to {@code path} in {@code context}:
   * the status, {@code Retry-After} for a 503, and the body, of {@link #MEDIA_TYPE}.
   */
  record Answer(int status, @Nullable String retryAfter, byte[] body) {}

  /**
   * The answer to {@code problem} for a request to {@code path}. Lost writes are reported here,
   * once: {@code context}, the request's, if any, forgets them, so that the answer's token no
   * longer names them and the client's next read can be served again.
   */
  Answer answer(Problem problem, String path, @Nullable ConsistencyContext context) {
    int status = problem.status();
    boolean badInput = status == 400;
    String title = badInput ? "Bad Request" : "Service Unavailable";
    if (log.isDebugEnabled()) {
      log.debug("Answering " + status + " to " + path + ": " + problem.logged());
    }
    if (context != null) {
      context.forgetLost(problem.lost());
    }
    byte[] body =
        ("{\"title\":"
                + json(title)
                + ",\"status\":"
                + status
                + ",\"detail\":"
                + json(problem.detail())
                + ",\"instance\":"
                + json(path)
                + ",\"reason\":"
                + json(problem.reason().name())
                + (problem.lost().isEmpty()
                    ? ""
                    : ",\"lost\":" + json(problem.lost().toSingleLineString()))
                + "}")
            .getBytes(StandardCharsets.UTF_8);
    return new Answer(status, badInput ? null : Long.toString(retryAfterSeconds()), body);
  }

  /** Whole seconds, rounded up: Retry-After has no finer unit. */
  private long retryAfterSeconds() {
    long millis = Math.max(0, retryAfter.toMillis());
    return (millis + 999) / 1000;
  }

  private static String json(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}

package io.tidemark.spring.autoconfigure;

import io.tidemark.ConsistentReadException;
import io.tidemark.Reason;
import io.tidemark.TidemarkException;
import io.tidemark.TokenRejectedException;
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
 * read that could not be served with 503 and {@code Retry-After}. The body names the reason code in
 * {@code reason}; the exception's message, which holds GTIDs and server UUIDs, is only logged.
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
   * The consistency outcome {@code failure} is or was caused by: a {@link TokenRejectedException}
   * or a {@link ConsistentReadException}; {@code null} for anything else.
   */
  static @Nullable TidemarkException find(@Nullable Throwable failure) {
    Throwable current = failure;
    for (int i = 0; current != null && i < MAX_CAUSES; i++) {
      if (current instanceof TokenRejectedException || current instanceof ConsistentReadException) {
        return (TidemarkException) current;
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
    boolean badInput =
        failure instanceof TokenRejectedException || failure.reason() == Reason.TOKEN_REJECTED;
    int status = badInput ? 400 : 503;
    String title = badInput ? "Bad Request" : "Service Unavailable";
    String detail =
        failure instanceof TokenRejectedException
            ? "The consistency token was rejected."
            : badInput
                ? "The consistency token names a source this cluster does not know."
                : "The read could not be served with the consistency it requires in time.";
    if (log.isDebugEnabled()) {
      log.debug("Answering " + status + " to " + request.getRequestURI() + ": " + failure);
    }
    response.setStatus(status);
    if (!badInput) {
      response.setHeader("Retry-After", Long.toString(retryAfterSeconds()));
    }
    response.setContentType(MEDIA_TYPE);
    byte[] body =
        ("{\"title\":"
                + json(title)
                + ",\"status\":"
                + status
                + ",\"detail\":"
                + json(detail)
                + ",\"instance\":"
                + json(request.getRequestURI())
                + ",\"reason\":"
                + json(failure.reason().name())
                + "}")
            .getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    response.flushBuffer();
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

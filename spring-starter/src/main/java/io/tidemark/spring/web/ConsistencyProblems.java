package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.TidemarkException;
import io.tidemark.internal.Failures;
import io.tidemark.jdbc.CommitOutcomeUnknownException;
import io.tidemark.token.TokenRejectedException;
import io.tidemark.topology.NoWritableSourceException;
import java.net.URI;
import java.util.Locale;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The RFC 9457 problem that answers a consistency outcome: a token that does not verify is a 400; a
 * read that could not be served, or a write with no single writable source, a 503 with {@code
 * Retry-After}, and so is a request whose database connection failed; a write whose commit the
 * database never confirmed a 500 that says it may have committed, not a bare failure. Its {@code
 * type} is {@code urn:tidemark:problem:} and the reason code in kebab case (a name, not a page to
 * fetch), and the code itself is in {@code reason}; the exception's message, which holds GTIDs and
 * server UUIDs, is only logged.
 *
 * <p>Tidemark answers with it through Spring MVC, and before MVC through its filter. An application
 * {@code @ExceptionHandler} for these exceptions runs first and may answer with {@link
 * #problemFor(Throwable)} itself, changed or as it is.
 */
public final class ConsistencyProblems {

  private static final String TYPE_PREFIX = "urn:tidemark:problem:";

  private static final Log log = LogFactory.getLog(ConsistencyProblems.class);
  private static final int MAX_CAUSES = 16;

  private final RetryAfter retryAfter;

  ConsistencyProblems(RetryAfter retryAfter) {
    this.retryAfter = retryAfter;
  }

  /**
   * The problem for {@code failure} or the first of its causes that is a {@link
   * TokenRejectedException}, a {@link ConsistentReadException}, a {@link NoWritableSourceException}
   * or a {@link CommitOutcomeUnknownException}, else a failed database connection (SQLState class
   * 08) among them; {@code null} when none is. Writes a failover lost are named in its {@code lost}
   * property and dropped from the request's context, so that the token of this answer no longer
   * requires them and the client's next read can be served.
   */
  public @Nullable ErrorResponseException problemFor(@Nullable Throwable failure) {
    return problemFor(failure, ConsistencyContext.currentOrNull());
  }

  /** The problem for {@code failure} of the request whose context is {@code context}. */
  @Nullable ErrorResponseException problemFor(
      @Nullable Throwable failure, @Nullable ConsistencyContext context) {
    Problem problem = find(failure);
    if (problem == null) {
      return null;
    }
    if (log.isDebugEnabled()) {
      log.debug("Answering " + problem.status().value() + ": " + problem.logged());
    }
    if (context != null) {
      context.forgetLost(problem.lost());
    }
    ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), problem.detail());
    body.setType(type(problem.reason()));
    body.setTitle(problem.title());
    body.setProperty("reason", problem.reason().name());
    if (!problem.lost().isEmpty()) {
      body.setProperty("lost", problem.lost().toSingleLineString());
    }
    ErrorResponseException answer = new ErrorResponseException(problem.status(), body, failure);
    if (problem.status() == HttpStatus.SERVICE_UNAVAILABLE) {
      answer
          .getHeaders()
          .set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter.seconds(problem.reason())));
    }
    return answer;
  }

  private static URI type(Enum<?> reason) {
    return URI.create(TYPE_PREFIX + reason.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  private static @Nullable Problem find(@Nullable Throwable failure) {
    Throwable current = failure;
    for (int i = 0; current != null && i < MAX_CAUSES; i++) {
      if (current instanceof TokenRejectedException || current instanceof ConsistentReadException) {
        return Problem.of((TidemarkException) current);
      }
      if (current instanceof CommitOutcomeUnknownException unknown) {
        return new Problem(
            unknown.reason(),
            HttpStatus.INTERNAL_SERVER_ERROR,
            "Write outcome unknown",
            "The connection to the database was lost before it confirmed the commit: the writes"
                + " may have committed. The token in this answer covers them if they did; read"
                + " before writing again.",
            unknown.toString(),
            GtidSet.EMPTY);
      }
      if (current instanceof NoWritableSourceException noSource) {
        return new Problem(
            noSource.reason(),
            HttpStatus.SERVICE_UNAVAILABLE,
            "No writable source",
            "No single database node accepts writes right now; retry shortly.",
            noSource.toString(),
            GtidSet.EMPTY);
      }
      current = current.getCause();
    }
    if (failure != null && Failures.causedByConnectionFailure(failure)) {
      // Left to Spring MVC, a connection reset by the database reads as a client that went away,
      // answered 200 with no body: a write that failed would look done.
      return new Problem(
          Reason.SOURCE_ERROR,
          HttpStatus.SERVICE_UNAVAILABLE,
          "Database connection lost",
          "The connection to the database failed while the request ran; retry shortly. Writes it"
              + " committed before are covered by the token in this answer.",
          failure.toString(),
          GtidSet.EMPTY);
    }
    return null;
  }

  /**
   * The one mapping of a consistency outcome to its answer: the reason, the status and title, the
   * detail a client may see, the exception's own message for the log, and the GTIDs of writes a
   * failover lost, when the source could tell.
   */
  private record Problem(
      Enum<?> reason, HttpStatus status, String title, String detail, String logged, GtidSet lost) {

    /**
     * A read refused because its token names a source the cluster does not know is bad input like a
     * token that does not verify, so it is a 400 too: retrying would not help.
     */
    static Problem of(TidemarkException failure) {
      if (failure instanceof TokenRejectedException) {
        return rejected(failure, "The consistency token was rejected.");
      }
      if (failure.reason() == Reason.TOKEN_REJECTED) {
        return rejected(
            failure, "The consistency token names a source this cluster does not know.");
      }
      GtidSet lost = ((ConsistentReadException) failure).lost();
      String detail =
          !lost.isEmpty()
              ? "Writes this token names were lost in a failover: the database no longer has"
                  + " them. The token in this answer no longer requires them."
              : "The read could not be served with the consistency it requires in time.";
      return new Problem(
          failure.reason(),
          HttpStatus.SERVICE_UNAVAILABLE,
          "Consistent read not served",
          detail,
          failure.toString(),
          lost);
    }

    private static Problem rejected(TidemarkException failure, String detail) {
      return new Problem(
          failure.reason(),
          HttpStatus.BAD_REQUEST,
          "Consistency token rejected",
          detail,
          failure.toString(),
          GtidSet.EMPTY);
    }
  }
}

package io.tidemark.spring.web;

import io.tidemark.ConsistentReadException;
import io.tidemark.jdbc.CommitOutcomeUnknownException;
import io.tidemark.token.TokenRejectedException;
import io.tidemark.topology.NoWritableSourceException;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers a refused read, a rejected token, a write without a single writable source or one whose
 * commit was never confirmed, or a failed database connection, that a handler threw, also wrapped
 * in another exception, with its {@link ConsistencyProblems problem} instead of a bare 500 (or, for
 * a connection the database reset, Spring MVC's 200 with no body, as for a client that went away),
 * written by Spring MVC's message converters. Ordered last, so that the application's own
 * {@code @ExceptionHandler} methods for these exceptions take precedence.
 *
 * <p>The problem takes the way of the application's other problems: through its {@link
 * ResponseEntityExceptionHandler} when it has one (Boot's with {@code
 * spring.mvc.problemdetails.enabled}, or its own), which may localize or extend it. Without one it
 * is still a problem, not Boot's error page: that has no place for {@code type} and {@code reason},
 * which clients need to tell a refusal to retry from bad input.
 */
@ControllerAdvice
final class ConsistencyExceptionHandler implements Ordered {

  private final ConsistencyProblems problems;
  private final ObjectProvider<ResponseEntityExceptionHandler> applicationHandler;

  ConsistencyExceptionHandler(
      ConsistencyProblems problems,
      ObjectProvider<ResponseEntityExceptionHandler> applicationHandler) {
    this.problems = problems;
    this.applicationHandler = applicationHandler;
  }

  @ExceptionHandler({
    ConsistentReadException.class,
    TokenRejectedException.class,
    NoWritableSourceException.class,
    CommitOutcomeUnknownException.class,
    SQLException.class
  })
  @Nullable ResponseEntity<Object> handle(Exception failure, WebRequest request) throws Exception {
    ErrorResponseException problem = problems.problemFor(failure);
    if (problem == null) {
      // Deeper in the causes than problems look: not answered here.
      throw failure;
    }
    ResponseEntityExceptionHandler handler = applicationHandler.getIfUnique();
    if (handler != null) {
      return handler.handleException(problem, request);
    }
    return ResponseEntity.status(problem.getStatusCode())
        .headers(problem.getHeaders())
        .body(problem.getBody());
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}

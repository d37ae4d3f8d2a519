package io.tidemark.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a refused read, a rejected token or a write without a single writable source that a
 * handler threw with its problem (503 or 400, see {@link ConsistencyProblems}) instead of a 500.
 * Ordered last, after Spring MVC's own resolvers, so that the application's
 * {@code @ExceptionHandler} methods and {@code ControllerAdvice} for these exceptions take
 * precedence.
 */
final class ConsistencyExceptionResolver implements HandlerExceptionResolver, Ordered {

  private static final Log log = LogFactory.getLog(ConsistencyExceptionResolver.class);

  private final ConsistencyProblems problems;

  ConsistencyExceptionResolver(ConsistencyProblems problems) {
    this.problems = problems;
  }

  @Override
  public @Nullable ModelAndView resolveException(
      HttpServletRequest request,
      HttpServletResponse response,
      @Nullable Object handler,
      Exception ex) {
    ConsistencyProblems.Problem outcome = ConsistencyProblems.find(ex);
    if (outcome == null || response.isCommitted()) {
      return null;
    }
    try {
      response.resetBuffer();
      problems.write(request, response, outcome);
      return new ModelAndView();
    } catch (IOException e) {
      log.debug("Could not write the problem for " + outcome.reason(), e);
      return null;
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}

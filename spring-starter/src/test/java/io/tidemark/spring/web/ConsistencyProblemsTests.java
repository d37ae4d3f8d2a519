package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.jdbc.CommitOutcomeUnknownException;
import io.tidemark.spring.JsonAnswer;
import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.topology.NoWritableSourceException;
import java.net.SocketException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Consistency outcomes a handler throws, answered through Spring MVC as problems: their members,
 * the application's JSON settings, the way of the application's other problems, and the
 * application's own exception handlers first.
 */
class ConsistencyProblemsTests {

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withPropertyValues(
              "tidemark.token.secret=" + TestTokens.SECRET, "tidemark.web.retry-after=1500ms")
          .withConfiguration(
              AutoConfigurations.of(
                  DispatcherServletAutoConfiguration.class,
                  WebMvcAutoConfiguration.class,
                  HttpMessageConvertersAutoConfiguration.class,
                  JacksonAutoConfiguration.class,
                  TidemarkWebAutoConfiguration.class))
          .withUserConfiguration(TestConfigurations.Codec.class, Refusals.class);

  @Test
  void aRefusedReadIsAProblemWithATypeForItsReason() {
    runner.run(
        context -> {
          MockHttpServletResponse response = perform(context, "/refused");

          JsonAnswer body = problem(response, 503, "2");
          assertThat(response.getContentType()).isEqualTo("application/problem+json");
          assertThat(members(body, "type", "title", "status", "instance", "reason"))
              .containsExactly(
                  "urn:tidemark:problem:wait-timeout",
                  "Consistent read not served",
                  503,
                  "/refused",
                  "WAIT_TIMEOUT");
          explains(body, "could not be served", "replica-uuid");
        });
  }

  @Test
  void aWriteWithNoSingleWritableSourceIsA503WithItsReasonNotA500() {
    runner.run(
        context -> {
          JsonAnswer body = problem(perform(context, "/split-brain"), 503, "2");
          assertThat(members(body, "type", "reason"))
              .containsExactly("urn:tidemark:problem:split-brain", "SPLIT_BRAIN");
          explains(body, "accepts writes", "replica-2");
        });
  }

  @Test
  void aWriteWhoseCommitWasNotAnsweredIsA500SayingItsOutcomeIsUnknown() {
    runner.run(
        context -> {
          JsonAnswer body = problem(perform(context, "/outcome-unknown"), 500, null);
          assertThat(members(body, "type", "title", "reason"))
              .containsExactly(
                  "urn:tidemark:problem:commit-outcome-unknown",
                  "Write outcome unknown",
                  "COMMIT_OUTCOME_UNKNOWN");
          explains(body, "may have committed", "link failure");
        });
  }

  @Test
  void aLostDatabaseConnectionIsA503NotSpringMvcsEmpty200ForAClientThatWentAway() {
    runner.run(
        context -> {
          MockHttpServletResponse response = perform(context, "/connection-reset");

          assertThat(response.getStatus()).isEqualTo(503);
          assertThat(response.getHeader("Retry-After")).isNotNull();
          JsonAnswer body = new JsonAnswer(response.getContentAsString());
          assertThat(members(body, "type", "title", "reason"))
              .containsExactly(
                  "urn:tidemark:problem:source-error", "Database connection lost", "SOURCE_ERROR");
        });
  }

  @Test
  void isWrittenWithTheApplicationsJsonSettings() {
    runner
        .withPropertyValues("spring.jackson.serialization.indent-output=true")
        .run(
            context ->
                assertThat(perform(context, "/refused").getContentAsString())
                    .contains("\n  \"reason\" : \"WAIT_TIMEOUT\""));
  }

  @Test
  void withProblemDetailsEnabledLooksLikeSpringMvcsOwnProblems() {
    runner
        .withPropertyValues("spring.mvc.problemdetails.enabled=true")
        .run(
            context -> {
              MockHttpServletResponse own = perform(context, "/refused");
              MockHttpServletResponse mvcs = perform(context, "/needs-parameter");

              assertThat(own.getContentType()).isEqualTo(mvcs.getContentType());
              assertThat(new JsonAnswer(own.getContentAsString()).names())
                  .containsAll(new JsonAnswer(mvcs.getContentAsString()).names());
            });
  }

  @Test
  void takesTheWayOfTheApplicationsOwnProblemHandler() {
    refusedWith(
        StampedProblems.class,
        body ->
            assertThat(members(body, "reason", "service")).containsExactly("WAIT_TIMEOUT", "shop"));
  }

  @Test
  void letsTheApplicationsExceptionHandlerAnswerFirstWithTheProblem() {
    refusedWith(
        ApplicationAdvice.class,
        body ->
            assertThat(members(body, "type", "advice"))
                .containsExactly("urn:tidemark:problem:wait-timeout", "application"));
  }

  @Test
  void otherFailuresAreNotConsistencyProblems() {
    runner.run(
        context -> {
          ConsistencyProblems problems = context.getBean(ConsistencyProblems.class);
          assertThat(problems.problemFor(new IllegalStateException("boom"))).isNull();
          assertThat(problems.problemFor(null)).isNull();
          assertThat(
                  problems.problemFor(
                      new DataIntegrityViolationException(
                          "duplicate",
                          new SQLIntegrityConstraintViolationException(
                              "Duplicate entry", "23000"))))
              .as("SQL failures other than a lost connection")
              .isNull();
        });
  }

  /**
   * Checks the problem a refused read is answered with, with the application's {@code
   * configuration}: a 503 with a Retry-After of 2 seconds, and what {@code check} checks.
   */
  private void refusedWith(Class<?> configuration, ThrowingConsumer<JsonAnswer> check) {
    runner
        .withUserConfiguration(configuration)
        .run(context -> check.accept(problem(perform(context, "/refused"), 503, "2")));
  }

  /** The problem {@code response} carries, having checked its status and Retry-After. */
  private static JsonAnswer problem(
      MockHttpServletResponse response, int status, @Nullable String retryAfter) throws Exception {
    assertThat(response.getStatus()).isEqualTo(status);
    assertThat(response.getHeader("Retry-After")).isEqualTo(retryAfter);
    return new JsonAnswer(response.getContentAsString());
  }

  /** Checks the problem's detail tells {@code detail} and nowhere tells {@code withheld}. */
  private static void explains(JsonAnswer body, String detail, String withheld) {
    assertThat(body.string("$.detail")).contains(detail);
    assertThat(body.text()).doesNotContain(withheld);
  }

  /** The values of the problem's top members {@code names}, in that order. */
  private static List<@Nullable Object> members(JsonAnswer body, String... names) {
    return Arrays.stream(names).map(name -> body.at("$." + name)).toList();
  }

  private static MockHttpServletResponse perform(WebApplicationContext context, String path)
      throws Exception {
    MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
    return mvc.perform(get(path)).andReturn().getResponse();
  }

  @RestController
  static class Refusals {

    @GetMapping("/refused")
    String refused() {
      throw ConsistentReadException.of(
          Reason.WAIT_TIMEOUT,
          GtidSet.EMPTY,
          "replica-uuid",
          Duration.ofMillis(5),
          "replica did not catch up");
    }

    @GetMapping("/split-brain")
    String splitBrain() {
      throw new DataAccessResourceFailureException(
          "could not get a connection",
          new NoWritableSourceException(Reason.SPLIT_BRAIN, "source and replica-2 accept writes"));
    }

    /** As a JPA transaction manager reports a commit whose connection was lost. */
    @GetMapping("/outcome-unknown")
    String outcomeUnknown() {
      throw new TransactionSystemException(
          "Could not commit JPA transaction",
          new IllegalStateException(
              "Unable to commit against JDBC Connection",
              new CommitOutcomeUnknownException(
                  new SQLNonTransientConnectionException("Communications link failure", "08S01"))));
    }

    /** As a transaction begun on a pooled connection the database had reset. */
    @GetMapping("/connection-reset")
    String connectionReset() {
      throw new CannotCreateTransactionException(
          "Could not open JPA EntityManager for transaction",
          new SQLNonTransientConnectionException(
              "Communications link failure",
              "08S01",
              new SocketException("Connection reset by peer")));
    }

    @GetMapping("/needs-parameter")
    String needsParameter(@RequestParam String name) {
      return name;
    }
  }

  /** An application's problem handler that stamps every problem with the service's name. */
  @ControllerAdvice
  static class StampedProblems extends ResponseEntityExceptionHandler {
    @Override
    protected ResponseEntity<Object> createResponseEntity(
        Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
      if (body instanceof ProblemDetail problem) {
        problem.setProperty("service", "shop");
      }
      return super.createResponseEntity(body, headers, status, request);
    }
  }

  /** An application's own handler for refused reads, answering with Tidemark's problem. */
  @ControllerAdvice
  static class ApplicationAdvice {
    private final ConsistencyProblems problems;

    ApplicationAdvice(ConsistencyProblems problems) {
      this.problems = problems;
    }

    // tag::own-handler[]
    @ExceptionHandler(ConsistentReadException.class)
    ErrorResponse refused(ConsistentReadException e) {
      ErrorResponseException problem = problems.problemFor(e);
      problem.getBody().setProperty("advice", "application");
      return problem;
    }
    // end::own-handler[]
  }
}

package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which calls leave the caller's context dirty when their outcome is unknown. */
class UncertainCallsTests {

  private static final URI CALLED =
      URI.create("http://user:pw@payments.internal:8443/pay/7?card=42");

  @ParameterizedTest
  @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "TRACE"})
  void safeMethodsCannotHaveWritten(String method) {
    assertThat(UncertainCalls.mayWrite(method)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PUT", "PATCH", "DELETE", "PROPFIND", "get"})
  void everyOtherMethodMayHaveWritten(String method) {
    assertThat(UncertainCalls.mayWrite(method)).isTrue();
  }

  @Test
  void anUnsafeCallWithoutAnAnswerMarksTheContextDirtyNamingTheMethodAndTheHostOnly() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    UncertainCalls.unanswered(
        context, "POST", CALLED, new IOException("wrapped", new HttpTimeoutException("timed out")));

    assertThat(context.dirtyBecause())
        .isEqualTo(
            "POST to payments.internal:8443 got no answer (HttpTimeoutException): it may have"
                + " written there")
        .doesNotContain("user")
        .doesNotContain("/pay")
        .doesNotContain("card");
  }

  @Test
  void aSafeCallWithoutAnAnswerLeavesTheContextClean() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    UncertainCalls.unanswered(context, "GET", CALLED, new SocketTimeoutException("Read timed out"));

    assertThat(context.isDirty()).isFalse();
  }

  @Test
  void aCallWhoseConnectionWasNeverMadeLeavesTheContextClean() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    UncertainCalls.unanswered(context, "POST", CALLED, new ConnectException("refused"));
    UncertainCalls.unanswered(context, "PUT", CALLED, new UnknownHostException("payments"));
    UncertainCalls.unanswered(
        context, "DELETE", CALLED, new RuntimeException(new HttpConnectTimeoutException("slow")));

    assertThat(context.isDirty()).isFalse();
  }

  @Test
  void anUnsafeCallAnsweredWithA5xxWithoutATokenMarksTheContextDirty() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    UncertainCalls.answered(context, "PATCH", CALLED, 504, false);

    assertThat(context.dirtyBecause())
        .isEqualTo(
            "PATCH to payments.internal:8443 was answered 504 without a token: it may have written"
                + " there");
  }

  @Test
  void otherAnswersLeaveTheContextClean() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    UncertainCalls.answered(context, "POST", CALLED, 500, true);
    UncertainCalls.answered(context, "POST", CALLED, 409, false);
    UncertainCalls.answered(context, "POST", CALLED, 200, false);
    UncertainCalls.answered(context, "GET", CALLED, 503, false);

    assertThat(context.isDirty()).isFalse();
  }

  @Test
  void aTargetWithoutAPortIsItsHost() {
    assertThat(UncertainCalls.target(URI.create("https://payments.internal/pay?x=1")))
        .isEqualTo("payments.internal");
  }
}

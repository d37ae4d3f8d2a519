package io.tidemark.spring.autoconfigure;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.token.ConsistencyToken;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class TokenHeadersTests {

  private static final Duration COVER = Duration.ofMillis(500);

  private final List<Duration> asked = new CopyOnWriteArrayList<>();
  private final TokenHeaders headers =
      new TokenHeaders(
          TestTokens.codec(),
          "default",
          "Consistency-Token",
          COVER,
          timeout -> {
            asked.add(timeout);
            return GtidSet.parse(A + ":1-10");
          });

  @Test
  void aDirtyContextIsCoveredWithinWhatIsLeftOfTheRequest() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(GtidSet.parse(A + ":3"))) {
      binding.context().markDirty("a write escaped capture");

      String token =
          headers.ownToken(
              binding.context(), Deadline.after(Duration.ofMillis(100), Ticker.systemTicker()));

      assertThat(verified(token).requiresSource()).isFalse();
      assertThat(verified(token).gtids()).isEqualTo(GtidSet.parse(A + ":1-10"));
    }
    assertThat(asked)
        .singleElement()
        .satisfies(t -> assertThat(t).isLessThanOrEqualTo(Duration.ofMillis(100)));
  }

  @Test
  void anAnswerPastItsDeadlineIsNotHeldToAskTheSourceItGetsAMarker() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(GtidSet.parse(A + ":3"))) {
      binding.context().markDirty("a write escaped capture");

      String token =
          headers.ownToken(binding.context(), Deadline.after(Duration.ZERO, Ticker.systemTicker()));

      assertThat(verified(token).requiresSource()).isTrue();
    }
    assertThat(asked).isEmpty();
  }

  @Test
  void withoutARequestDeadlineTheCoverTimeoutBounds() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(GtidSet.parse(A + ":3"))) {
      binding.context().markDirty("a write escaped capture");

      headers.ownToken(binding.context(), null);
    }
    assertThat(asked).containsExactly(COVER);
  }

  private static ConsistencyToken verified(String token) {
    return TestTokens.codec().verify(token, "default");
  }
}

package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.RandomGtids;
import io.tidemark.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class TokenExchangeTests {

  private static final String A = RandomGtids.UUIDS[0];
  private static final Duration COVER = Duration.ofMillis(500);

  private final TokenCodec codec =
      new TokenCodec(
          TokenConfig.builder(
                  KeyRing.builder()
                      .key(
                          "k1",
                          "exchange-tests-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8))
                      .active("k1")
                      .build())
              .build());
  private final List<Duration> asked = new CopyOnWriteArrayList<>();
  private final TokenExchange exchange =
      new TokenExchange(
          codec,
          "default",
          "Consistency-Token",
          COVER,
          timeout -> {
            asked.add(timeout);
            return GtidSet.parse(A + ":1-10");
          });

  @Test
  void aDirtyContextIsCoveredWithinWhatIsLeftOfItsDeadline() {
    ConsistencyContext context =
        dirty(Deadline.after(Duration.ofMillis(100), Ticker.systemTicker()));

    String token = exchange.ownToken(context);

    assertThat(verified(token).requiresSource()).isFalse();
    assertThat(verified(token).gtids()).isEqualTo(GtidSet.parse(A + ":1-10"));
    assertThat(asked)
        .singleElement()
        .satisfies(t -> assertThat(t).isLessThanOrEqualTo(Duration.ofMillis(100)));
  }

  @Test
  void anAnswerPastItsDeadlineIsNotHeldToAskTheSourceItGetsAMarker() {
    String token = exchange.ownToken(dirty(Deadline.after(Duration.ZERO, Ticker.systemTicker())));

    assertThat(verified(token).requiresSource()).isTrue();
    assertThat(asked).isEmpty();
  }

  @Test
  void withoutADeadlineTheCoverTimeoutBounds() {
    exchange.ownToken(dirty(null));

    assertThat(asked).containsExactly(COVER);
  }

  @Test
  void forwardsOtherClustersTokensAndReplacesThoseSentWithTheAnswers() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);
    exchange.read("default=" + own(A + ":3") + ", payments=p1, shipping=s1").applyTo(context);
    assertThat(context.gtids()).isEqualTo(GtidSet.parse(A + ":3"));
    Map<String, List<String>> sent = context.forwardedTokens();

    exchange.merge("payments=p2, default=" + own(A + ":4"), context, sent);

    assertThat(context.gtids()).isEqualTo(GtidSet.parse(A + ":3-4"));
    assertThat(context.forwardedTokens())
        .isEqualTo(Map.of("payments", List.of("p2"), "shipping", List.of("s1")));
    assertThat(exchange.headerValue(null, context.forwardedTokens()))
        .isEqualTo("payments=p2, shipping=s1");
  }

  @Test
  void writesReportedLostTravelInTheTokenToTheNextInstance() {
    ConsistencyContext told = toldLost("1-3", "3");

    assertTheNextInstanceHas(told, "1-2", "3");
  }

  @Test
  void aCommitReusingTheNumberOfAWriteReportedLostIsInTheToken() {
    ConsistencyContext told = toldLost("1-4", "3-4");

    // A former source rejoined under its server_uuid and numbers its next commit 3 again.
    told.committed(GtidSet.parse(A + ":3"));
    assertTheNextInstanceHas(told, "1-3", "4");
  }

  @Test
  void aTokenWhoseEveryWriteWasReportedLostIsStillAnsweredSoTheClientReplacesIt() {
    ConsistencyContext told = toldLost("3", "3");

    String token = exchange.ownToken(told);

    assertThat(token)
        .as("an answer without one would leave the client sending the lost")
        .isNotNull();
    ConsistencyContext next = exchange.receive("default=" + token, null);
    assertThat(next.gtids().isEmpty()).isTrue();
    assertThat(next.lost()).isEqualTo(GtidSet.parse(A + ":3"));
  }

  @Test
  void anAnswerThatDoesNotVerifyMarksTheContextDirty() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    exchange.merge("default=v1.k1.forged.x", context, Map.of());

    assertThat(context.isDirty()).isTrue();
  }

  @Test
  void aMarkerRequiresTheSourceAndKeepsTheContextsGtidsWithoutAskingIt() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.parse(A + ":3"), null);

    ConsistencyToken marker = verified(exchange.requiringSource(context));

    assertThat(marker.requiresSource()).isTrue();
    assertThat(marker.gtids()).isEqualTo(GtidSet.parse(A + ":3"));
    assertThat(asked).isEmpty();
  }

  @Test
  void valuesReceivedIntoOneContextAddUpAndARejectedOneMakesItDirty() {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);

    assertThat(exchange.receiveInto(context, "default=" + own(A + ":3"))).isNull();
    assertThat(exchange.receiveInto(context, null)).isNull();
    assertThat(exchange.receiveInto(context, "default=" + own(A + ":5"))).isNull();
    assertThat(context.gtids()).isEqualTo(GtidSet.parse(A + ":3:5"));
    assertThat(context.isDirty()).isFalse();

    assertThat(exchange.receiveInto(context, "default=v1.k1.forged.x"))
        .isEqualTo(TokenRejectedException.Check.MALFORMED);
    assertThat(context.isDirty()).isTrue();
    assertThat(context.gtids()).isEqualTo(GtidSet.parse(A + ":3:5"));
  }

  private static ConsistencyContext dirty(Deadline deadline) {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.parse(A + ":3"), deadline);
    context.markDirty("a write escaped capture");
    return context;
  }

  private String own(String gtids) {
    return codec.encode(codec.issue("default", GtidSet.parse(gtids)));
  }

  private ConsistencyToken verified(String token) {
    return codec.verify(token, "default");
  }

  /** A context that executed {@code intervals} of server A and was told {@code lost} were lost. */
  private static ConsistencyContext toldLost(String intervals, String lost) {
    ConsistencyContext told = ConsistencyContext.create(GtidSet.parse(A + ":" + intervals), null);
    told.forgetLost(GtidSet.parse(A + ":" + lost));
    return told;
  }

  /**
   * The context the next instance makes of {@code told}'s own token holds {@code intervals} of
   * server A, and {@code lost} of it as reported lost.
   */
  private void assertTheNextInstanceHas(ConsistencyContext told, String intervals, String lost) {
    ConsistencyContext next = exchange.receive("default=" + exchange.ownToken(told), null);

    assertThat(next.gtids()).isEqualTo(GtidSet.parse(A + ":" + intervals));
    assertThat(next.lost()).isEqualTo(GtidSet.parse(A + ":" + lost));
  }
}

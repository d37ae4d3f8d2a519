package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyHeader;
import io.tidemark.ConsistencyToken;
import io.tidemark.GtidSet;
import io.tidemark.TokenCodec;
import io.tidemark.TokenRejectedException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The message-header recipe of {@link TidemarkClientAutoConfiguration}'s javadoc, as written. */
class MessageHeaderRecipeTests {

  private final TokenCodec codec = TestTokens.codec();
  private final String cluster = "default";

  @Test
  void theConsumerReadsWithTheProducersToken() {
    Map<String, String> message = new HashMap<>();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1-7"))) {
      produce(message);
    }

    ConsistencyContext consumed = consume(message, codec);

    assertThat(consumed.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1-7"));
    assertThat(consumed.isDirty()).isFalse();
  }

  @Test
  void aDirtyProducerOrARejectedTokenSendsTheConsumersReadsToTheSource() {
    Map<String, String> dirty = new HashMap<>();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      producer.context().markDirty("write not captured");
      produce(dirty);
    }
    Map<String, String> signedElsewhere = new HashMap<>();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      produce(signedElsewhere);
    }

    assertThat(dirty).doesNotContainKey("Consistency-Token");
    assertThat(consume(dirty, codec).isDirty()).isTrue();
    assertThat(consume(signedElsewhere, TestTokens.codec(TestTokens.OTHER_SECRET)).isDirty())
        .isTrue();
  }

  private void produce(Map<String, String> message) {
    ConsistencyContext context = ConsistencyContext.current();
    if (context.isDirty()) {
      message.put("Consistency-Dirty", "true");
    } else if (!context.gtids().isEmpty()) {
      ConsistencyToken token = codec.issue(cluster, context.gtids());
      message.put("Consistency-Token", codec.withToken(ConsistencyHeader.EMPTY, token).toString());
    }
  }

  private ConsistencyContext consume(Map<String, String> message, TokenCodec codec) {
    try (ConsistencyContext.Scope scope = ConsistencyContext.open()) {
      try {
        codec
            .verify(codec.parseHeader(message.get("Consistency-Token")), cluster)
            .ifPresent(token -> scope.context().merge(token.gtids()));
      } catch (TokenRejectedException e) {
        scope.context().markDirty("message token rejected: " + e.reason());
      }
      if (message.get("Consistency-Dirty") != null) {
        scope.context().markDirty("producer's write not captured");
      }
      return scope.context();
    }
  }
}

package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenRejectedException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The message-header recipe of {@link TidemarkClientAutoConfiguration}'s javadoc, as written. */
class MessageHeaderRecipeTests {

  private final TokenCodec codec = TestTokens.codec();
  private final String cluster = "default";

  @Test
  void theConsumerReadsWithTheProducersToken() {
    Map<String, String> message = new HashMap<>();
    try (ConsistencyContext.Binding producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1-7"))) {
      produce(message);
    }

    ConsistencyContext consumed = consume(message, codec);

    assertThat(consumed.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1-7"));
    assertThat(consumed.isDirty()).isFalse();
  }

  @Test
  void aDirtyProducerWithoutASourceOrARejectedTokenSendsTheConsumersReadsToTheSource() {
    Map<String, String> dirty = new HashMap<>();
    try (ConsistencyContext.Binding producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      producer.context().markDirty("write not captured");
      produce(dirty);
    }
    Map<String, String> signedElsewhere = new HashMap<>();
    try (ConsistencyContext.Binding producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      produce(signedElsewhere);
    }

    ConsistencyContext consumed = consume(dirty, codec);
    assertThat(consumed.isDirty()).isTrue();
    assertThat(consumed.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1"));
    assertThat(consume(signedElsewhere, TestTokens.codec(TestTokens.OTHER_SECRET)).isDirty())
        .isTrue();
  }

  // The recipe, with a reader whose source does not answer (nothing listens): the marker path.
  private final DriverManagerDataSource nowhere =
      new DriverManagerDataSource("jdbc:mysql://127.0.0.1:1/shop?connectTimeout=200");
  private final ConsistentReader reader = ConsistentReader.builder(nowhere, nowhere).build();

  private void produce(Map<String, String> message) {
    ConsistencyContext context = ConsistencyContext.current();
    ConsistencyToken token = codec.issue(cluster, context.gtids());
    if (context.isDirty()) { // its GTIDs may miss a write: cover it, or send a marker
      try {
        GtidSet executed = reader.sourceExecuted(Duration.ofMillis(500));
        token = codec.issue(cluster, context.gtids().union(executed)).compact(executed);
      } catch (SQLException e) {
        token = token.requiringSource();
      }
    }
    if (!token.gtids().isEmpty() || token.requiresSource()) {
      message.put("Consistency-Token", codec.withToken(ConsistencyHeader.EMPTY, token).toString());
    }
  }

  private ConsistencyContext consume(Map<String, String> message, TokenCodec codec) {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try {
        codec
            .verify(codec.parseHeader(message.get("Consistency-Token")), cluster)
            .ifPresent(
                token -> {
                  binding.context().merge(token.gtids());
                  if (token.requiresSource()) {
                    binding.context().markDirty("producer's write not covered");
                  }
                });
      } catch (TokenRejectedException e) {
        binding.context().markDirty("message token rejected: " + e.reason());
      }
      return binding.context();
    }
  }
}

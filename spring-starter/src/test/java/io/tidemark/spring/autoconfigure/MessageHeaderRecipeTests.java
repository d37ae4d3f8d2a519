package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyHeader;
import io.tidemark.ConsistencyToken;
import io.tidemark.GtidSet;
import io.tidemark.TokenCodec;
import io.tidemark.TokenRejectedException;
import io.tidemark.jdbc.ConsistentReader;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The message-header recipe of {@link TidemarkClientAutoConfiguration}'s javadoc and of
 * docs/getting-started.md (the tagged regions), as written.
 */
class MessageHeaderRecipeTests {

  private final TokenCodec codec = TestTokens.codec();
  private final String cluster = "default";

  @Test
  void theConsumerReadsWithTheProducersToken() {
    Message message = new Message();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1-7"))) {
      produce(message);
    }

    ConsistencyContext consumed = consume(message, codec);

    assertThat(consumed.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1-7"));
    assertThat(consumed.isDirty()).isFalse();
  }

  @Test
  void aDirtyProducerWithoutASourceOrARejectedTokenSendsTheConsumersReadsToTheSource() {
    Message dirty = new Message();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      producer.context().markDirty("write not captured");
      produce(dirty);
    }
    Message signedElsewhere = new Message();
    try (ConsistencyContext.Scope producer =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      produce(signedElsewhere);
    }

    ConsistencyContext consumed = consume(dirty, codec);
    assertThat(consumed.isDirty()).isTrue();
    assertThat(consumed.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1"));
    assertThat(consume(signedElsewhere, TestTokens.codec(TestTokens.OTHER_SECRET)).isDirty())
        .isTrue();
  }

  /** A message of a queue, as far as the recipe needs one. */
  static final class Message {
    private final Map<String, String> headers = new HashMap<>();

    void setHeader(String name, String value) {
      headers.put(name, value);
    }

    @Nullable String getHeader(String name) {
      return headers.get(name);
    }
  }

  // The recipe, with a reader whose source does not answer (nothing listens): the marker path.
  private final DriverManagerDataSource nowhere =
      new DriverManagerDataSource("jdbc:mysql://127.0.0.1:1/shop?connectTimeout=200");
  private final ConsistentReader reader = ConsistentReader.builder(nowhere, nowhere).build();

  private void produce(Message message) {
    // tag::producer[]
    ConsistencyContext context = ConsistencyContext.current(); // after the commit
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
      message.setHeader(
          "Consistency-Token", codec.withToken(ConsistencyHeader.EMPTY, token).toString());
    }
    // end::producer[]
  }

  private ConsistencyContext consume(Message message, TokenCodec codec) {
    // tag::consumer[]
    try (ConsistencyContext.Scope scope = ConsistencyContext.open()) {
      try {
        codec
            .verify(codec.parseHeader(message.getHeader("Consistency-Token")), cluster)
            .ifPresent(
                token -> {
                  scope.context().merge(token.gtids());
                  if (token.requiresSource()) {
                    scope.context().markDirty("producer's write not covered");
                  }
                });
      } catch (TokenRejectedException e) { // e.g. EXPIRED after a long queue
        scope.context().markDirty("message token rejected: " + e.reason());
      }
      handle(message); // @ReadYourWrites reads see the producer's writes, or go to the source
    }
    // end::consumer[]
    assertThat(handled).as("handled message").isNotNull();
    return handled;
  }

  private @Nullable ConsistencyContext handled;

  /** What the consumer's reads would run under: the context it handles the message in. */
  private void handle(Message message) {
    assertThat(message).isNotNull();
    handled = ConsistencyContext.current();
  }
}

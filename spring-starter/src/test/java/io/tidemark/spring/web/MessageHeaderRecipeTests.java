package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The message-header recipe of the documentation, as written. */
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
  private final TokenExchange exchange =
      new TokenExchange(
          codec, cluster, "Consistency-Token", Duration.ofMillis(500), reader::sourceExecuted);

  private void produce(Map<String, String> message) {
    // tag::producer[]
    // after the writes committed; a dirty context is covered with the source, or gets a marker
    ConsistencyContext unit = ConsistencyContext.currentOrNull(); // none outside a unit of work
    String value = unit == null ? null : exchange.headerFor(unit);
    if (value != null) {
      message.put(exchange.headerName(), value);
    }
    // end::producer[]
  }

  private ConsistencyContext consume(Map<String, String> message, TokenCodec codec) {
    TokenExchange exchange =
        new TokenExchange(
            codec, cluster, "Consistency-Token", Duration.ofMillis(500), reader::sourceExecuted);
    // tag::consumer[]
    // a token that does not verify (expired after a long queue) sends the reads to the source
    ConsistencyContext context = exchange.receive(message.get(exchange.headerName()), null);
    try (ConsistencyContext.Binding binding = context.attach()) {
      handle(message); // reads under @ReadYourWrites see the producer's writes
    }
    // end::consumer[]
    return context;
  }

  private void handle(Map<String, String> message) {
    assertThat(ConsistencyContext.currentOrNull()).isNotNull();
  }
}

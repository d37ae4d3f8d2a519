package io.tidemark.spring.messaging;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Puts the sending thread's token on each record, in place of any the record had. Kafka calls it on
 * the thread that sends, before the record is serialized; it is public because Kafka creates it
 * from its class name.
 */
public final class TokenProducerInterceptor implements ProducerInterceptor<Object, Object> {

  /** The producer setting that hands the interceptor its {@link MessageTokens}. */
  static final String TOKENS = "tidemark.message-tokens";

  private @Nullable Supplier<MessageTokens> tokens;

  /** For Kafka, which creates the interceptor from its class name. */
  public TokenProducerInterceptor() {}

  @Override
  @SuppressWarnings("unchecked")
  public void configure(Map<String, ?> configs) {
    Object given = configs.get(TOKENS);
    if (!(given instanceof Supplier<?>)) {
      throw new IllegalStateException(
          "TokenProducerInterceptor is added by the Tidemark starter to the producer factories"
              + " it finds; it cannot be configured by hand");
    }
    tokens = (Supplier<MessageTokens>) given;
  }

  @Override
  public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
    Supplier<MessageTokens> configured = tokens;
    if (configured == null) {
      throw new IllegalStateException("Kafka sent a record before it configured its interceptors");
    }
    MessageTokens messages = configured.get();
    String value = messages.outgoing();
    if (value != null) {
      record.headers().remove(messages.header());
      record.headers().add(messages.header(), value.getBytes(StandardCharsets.UTF_8));
    }
    return record;
  }

  @Override
  public void onAcknowledgement(@Nullable RecordMetadata metadata, @Nullable Exception exception) {}

  @Override
  public void close() {}
}

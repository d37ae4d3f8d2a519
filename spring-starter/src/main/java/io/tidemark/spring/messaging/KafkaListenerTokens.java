package io.tidemark.spring.messaging;

import io.tidemark.ConsistencyContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Binds, on the consumer thread, the context a record's listener runs in (the union of the batch's
 * tokens for a batch listener) and ends it when the listener has run, whatever its outcome; a
 * failed batch's, once the error handler is done with it.
 */
final class KafkaListenerTokens
    implements RecordInterceptor<Object, Object>, BatchInterceptor<Object, Object> {

  static final String TECHNOLOGY = "kafka";

  private final Supplier<MessageTokens> tokens;
  private final ThreadLocal<ConsistencyContext.@Nullable Binding> bound = new ThreadLocal<>();

  KafkaListenerTokens(Supplier<MessageTokens> tokens) {
    this.tokens = tokens;
  }

  @Override
  public ConsumerRecord<Object, Object> intercept(
      ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
    MessageTokens messages = tokens.get();
    bind(
        messages.incoming(
            TECHNOLOGY, Collections.singletonList(valueOf(record, messages.header()))));
    return record;
  }

  @Override
  public void afterRecord(
      ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
    unbind();
  }

  @Override
  public ConsumerRecords<Object, Object> intercept(
      ConsumerRecords<Object, Object> records, Consumer<Object, Object> consumer) {
    MessageTokens messages = tokens.get();
    List<@Nullable String> values = new ArrayList<>();
    records.forEach(record -> values.add(valueOf(record, messages.header())));
    bind(messages.incoming(TECHNOLOGY, values));
    return records;
  }

  @Override
  public void success(ConsumerRecords<Object, Object> records, Consumer<Object, Object> consumer) {
    unbind();
  }

  /**
   * Leaves a failed batch's context bound: in a transactional container the batch is intercepted
   * once, before its transaction, and the error handler's retries and recoverer run the listener
   * again without intercepting. The next batch, or the container's {@link #clearThreadState} at the
   * end of the poll, unbinds it.
   */
  @Override
  public void failure(
      ConsumerRecords<Object, Object> records,
      Exception exception,
      Consumer<Object, Object> consumer) {}

  @Override
  public void clearThreadState(Consumer<?, ?> consumer) {
    unbind();
  }

  private void bind(ConsistencyContext context) {
    unbind();
    bound.set(context.attach());
  }

  private void unbind() {
    ConsistencyContext.Binding binding = bound.get();
    if (binding != null) {
      bound.remove();
      binding.close();
    }
  }

  private static @Nullable String valueOf(ConsumerRecord<?, ?> record, String header) {
    List<String> values = new ArrayList<>();
    for (Header field : record.headers().headers(header)) {
      if (field.value() != null) {
        values.add(new String(field.value(), StandardCharsets.UTF_8));
      }
    }
    return values.isEmpty() ? null : String.join(", ", values);
  }
}

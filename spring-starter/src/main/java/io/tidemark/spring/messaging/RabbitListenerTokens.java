package io.tidemark.spring.messaging;

import com.rabbitmq.client.LongString;
import io.tidemark.ConsistencyContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.amqp.core.Message;

/**
 * Binds, around a listener container's call of its listener, the context the listener runs in: its
 * message's token, or the union of the batch's tokens for a batch listener, ended when the listener
 * has run, whatever its outcome. The container calls its advice chain with the channel and either a
 * {@link Message} or, for a batch listener, a list of them.
 */
final class RabbitListenerTokens implements MethodInterceptor {

  static final String TECHNOLOGY = "rabbit";

  private final Supplier<MessageTokens> tokens;

  RabbitListenerTokens(Supplier<MessageTokens> tokens) {
    this.tokens = tokens;
  }

  @Override
  public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
    Object[] arguments = invocation.getArguments();
    Object data = arguments.length == 2 ? arguments[1] : null;
    List<Message> messages = new ArrayList<>();
    if (data instanceof Message message) {
      messages.add(message);
    } else if (data instanceof Collection<?> batch) {
      for (Object element : batch) {
        if (element instanceof Message message) {
          messages.add(message);
        }
      }
    }
    if (messages.isEmpty()) {
      return invocation.proceed();
    }
    MessageTokens rules = tokens.get();
    List<@Nullable String> values = new ArrayList<>(messages.size());
    for (Message message : messages) {
      values.add(text(message.getMessageProperties().getHeader(rules.header())));
    }
    try (ConsistencyContext.Binding bound = rules.incoming(TECHNOLOGY, values).attach()) {
      return invocation.proceed();
    }
  }

  /**
   * A header value as text. The client hands a string header over as a {@link LongString}, which
   * Spring converts to a {@code String} only up to 1 024 bytes; other publishers may send bytes.
   * Anything else is kept as its text, which does not read as a token: it is rejected and counted,
   * and the listener reads from the source.
   */
  static @Nullable String text(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof LongString longString) {
      return new String(longString.getBytes(), StandardCharsets.UTF_8);
    }
    if (value instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    return value.toString();
  }
}

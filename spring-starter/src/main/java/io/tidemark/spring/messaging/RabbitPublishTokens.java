package io.tidemark.spring.messaging;

import java.util.function.Supplier;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;

/**
 * Puts the sending thread's token on each message a template publishes, in place of any it had. The
 * template runs its before-publish post-processors on the thread that sends.
 */
final class RabbitPublishTokens implements MessagePostProcessor {

  private final Supplier<MessageTokens> tokens;

  RabbitPublishTokens(Supplier<MessageTokens> tokens) {
    this.tokens = tokens;
  }

  @Override
  public Message postProcessMessage(Message message) {
    MessageTokens messages = tokens.get();
    String value = messages.outgoing();
    if (value != null) {
      message.getMessageProperties().setHeader(messages.header(), value);
    }
    return message;
  }
}

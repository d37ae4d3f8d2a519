package io.tidemark.spring.messaging;

import io.tidemark.ConsistencyContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import java.util.Collections;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.jms.listener.AbstractMessageListenerContainer;
import org.springframework.jms.listener.SessionAwareMessageListener;

/**
 * Runs a listener container's listener in the context of each message's token, bound on the
 * listener's thread and ended when the listener returns or throws, which includes the reply a
 * {@code @JmsListener} sends. The container reads its listener again for every message, so the
 * listener can be replaced at any time before the container starts. The stand-in is of the user's
 * listener's kind: a container hands a {@link SessionAwareMessageListener} a session, and creates
 * one for it when it exposes none, which a plain listener must not get.
 */
final class JmsListenerTokens {

  static final String TECHNOLOGY = "jms";

  private JmsListenerTokens() {}

  /**
   * Whether {@code container}'s listener now runs in its messages' contexts: {@code false} for a
   * container without a listener yet, or of a kind whose listener cannot be reached.
   */
  static boolean cover(@Nullable Object container, Supplier<MessageTokens> tokens) {
    if (!(container instanceof AbstractMessageListenerContainer listening)) {
      return false;
    }
    Object listener = listening.getMessageListener();
    if (listener instanceof Covered) {
      return true;
    }
    if (listener instanceof SessionAwareMessageListener<?> aware) {
      listening.setMessageListener(new SessionAware(aware, tokens));
      return true;
    }
    if (listener instanceof MessageListener plain) {
      listening.setMessageListener(new Plain(plain, tokens));
      return true;
    }
    return false;
  }

  /** Whether {@code container}'s listener runs in its messages' contexts. */
  static boolean covered(@Nullable Object container) {
    return container instanceof AbstractMessageListenerContainer listening
        && listening.getMessageListener() instanceof Covered;
  }

  private abstract static class Covered {

    private final Supplier<MessageTokens> tokens;

    Covered(Supplier<MessageTokens> tokens) {
      this.tokens = tokens;
    }

    abstract Object delegate();

    ConsistencyContext.Binding bind(Message message) {
      MessageTokens messages = tokens.get();
      String value;
      try {
        value = message.getStringProperty(messages.jmsProperty());
      } catch (JMSException | RuntimeException unreadable) {
        return messages.unreadable(TECHNOLOGY, unreadable).attach();
      }
      return messages.incoming(TECHNOLOGY, Collections.singletonList(value)).attach();
    }

    @Override
    public String toString() {
      return "tokens around " + delegate();
    }
  }

  private static final class Plain extends Covered implements MessageListener {

    private final MessageListener delegate;

    Plain(MessageListener delegate, Supplier<MessageTokens> tokens) {
      super(tokens);
      this.delegate = delegate;
    }

    @Override
    Object delegate() {
      return delegate;
    }

    @Override
    public void onMessage(Message message) {
      try (ConsistencyContext.Binding bound = bind(message)) {
        delegate.onMessage(message);
      }
    }
  }

  private static final class SessionAware extends Covered
      implements SessionAwareMessageListener<Message> {

    private final SessionAwareMessageListener<Message> delegate;

    @SuppressWarnings("unchecked")
    SessionAware(SessionAwareMessageListener<?> delegate, Supplier<MessageTokens> tokens) {
      super(tokens);
      this.delegate = (SessionAwareMessageListener<Message>) delegate;
    }

    @Override
    Object delegate() {
      return delegate;
    }

    @Override
    public void onMessage(Message message, Session session) throws JMSException {
      try (ConsistencyContext.Binding bound = bind(message)) {
        delegate.onMessage(message, session);
      }
    }
  }
}

package io.tidemark.spring.messaging;

import java.util.function.Supplier;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Adds the token to a broker's beans of two kinds once they are initialized: those its messages are
 * sent through, and the listener container factories its listeners are read through.
 *
 * @param <S> the beans messages are sent through
 * @param <L> the listener container factories
 */
abstract class BrokerTokensPostProcessor<S, L> implements BeanPostProcessor {

  final Supplier<MessageTokens> tokens;
  private final Class<S> senders;
  private final Class<L> listeners;

  BrokerTokensPostProcessor(Supplier<MessageTokens> tokens, Class<S> senders, Class<L> listeners) {
    this.tokens = tokens;
    this.senders = senders;
    this.listeners = listeners;
  }

  @Override
  public final Object postProcessAfterInitialization(Object bean, String beanName) {
    if (senders.isInstance(bean)) {
      addToSender(senders.cast(bean));
    } else if (listeners.isInstance(bean)) {
      addToListeners(listeners.cast(bean));
    }
    return bean;
  }

  abstract void addToSender(S sender);

  abstract void addToListeners(L factory);
}

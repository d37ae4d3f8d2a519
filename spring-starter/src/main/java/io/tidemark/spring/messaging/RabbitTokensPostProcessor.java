package io.tidemark.spring.messaging;

import java.util.Arrays;
import java.util.Collection;
import java.util.function.Supplier;
import org.aopalliance.aop.Advice;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Adds the token to RabbitMQ: {@link RabbitPublishTokens} after the before-publish post-processors
 * of each {@link RabbitTemplate} bean, so that no processor of the user's replaces the header, and
 * {@link RabbitListenerTokens} at the head of the advice chain of each listener container factory
 * bean.
 *
 * <p>At the head, not innermost: Spring AMQP's stateless retry advice (Boot's {@code
 * spring.rabbitmq.listener.*.retry}) calls {@code proceed()} again on the same invocation, which on
 * every attempt after the first goes straight to the listener, past the advices after it. Outer,
 * every attempt and the recoverer run in the message's context; an attempt finds what the ones
 * before it merged or marked, which can only send its reads to the source or make them wait for
 * more, never read stale.
 */
@SuppressWarnings("rawtypes")
final class RabbitTokensPostProcessor
    extends BrokerTokensPostProcessor<RabbitTemplate, AbstractRabbitListenerContainerFactory> {

  RabbitTokensPostProcessor(Supplier<MessageTokens> tokens) {
    super(tokens, RabbitTemplate.class, AbstractRabbitListenerContainerFactory.class);
  }

  @Override
  void addToSender(RabbitTemplate template) {
    Collection<MessagePostProcessor> processors = template.getBeforePublishPostProcessors();
    if (processors == null
        || processors.stream().noneMatch(RabbitPublishTokens.class::isInstance)) {
      template.addBeforePublishPostProcessors(new RabbitPublishTokens(tokens));
    }
  }

  @Override
  void addToListeners(AbstractRabbitListenerContainerFactory listeners) {
    Advice[] chain = listeners.getAdviceChain();
    if (chain == null) {
      listeners.setAdviceChain(new RabbitListenerTokens(tokens));
      return;
    }
    if (Arrays.stream(chain).anyMatch(RabbitListenerTokens.class::isInstance)) {
      return;
    }
    Advice[] withTokens = new Advice[chain.length + 1];
    withTokens[0] = new RabbitListenerTokens(tokens);
    System.arraycopy(chain, 0, withTokens, 1, chain.length);
    listeners.setAdviceChain(withTokens);
  }
}

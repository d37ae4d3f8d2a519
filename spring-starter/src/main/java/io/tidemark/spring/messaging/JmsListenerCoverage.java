package io.tidemark.spring.messaging;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jms.config.JmsListenerEndpointRegistry;
import org.springframework.jms.listener.MessageListenerContainer;

/**
 * Covers, just before they start, the listener containers that {@link JmsTokensPostProcessor} did
 * not reach: those of an endpoint registry made by a factory that is no bean, and container beans
 * whose listener was set after their initialization. Its phase is just below the lowest of the
 * registries' and the containers', which the lifecycle asks once every endpoint is registered. Each
 * container covered this late is logged, since one its factory makes after the start would not be;
 * each that cannot be covered (not an {@code AbstractMessageListenerContainer}) is logged as such.
 */
final class JmsListenerCoverage implements SmartLifecycle {

  private static final Log log = LogFactory.getLog(JmsListenerCoverage.class);

  private final ConfigurableListableBeanFactory beans;
  private final Supplier<MessageTokens> tokens;
  private volatile boolean running;

  JmsListenerCoverage(ConfigurableListableBeanFactory beans, Supplier<MessageTokens> tokens) {
    this.beans = beans;
    this.tokens = tokens;
  }

  @Override
  public void start() {
    for (Map.Entry<String, MessageListenerContainer> container : containers().entrySet()) {
      if (!JmsListenerTokens.covered(container.getValue())) {
        if (JmsListenerTokens.cover(container.getValue(), tokens)) {
          log.warn(
              "JMS listener container "
                  + container.getKey()
                  + " was covered with consistency tokens only at start: one made later by the"
                  + " same factory would not be. Declare its JmsListenerContainerFactory as a"
                  + " bean, and set a container bean's listener before its initialization.");
        } else {
          uncovered(container.getValue(), container.getKey());
        }
      }
    }
    running = true;
  }

  /** Logs that the messages of {@code container} will not bring their tokens to its listener. */
  static void uncovered(@Nullable Object container, String which) {
    log.warn(
        "The listener of JMS listener container "
            + which
            + " ("
            + (container == null ? "none" : container.getClass().getName())
            + ") cannot be reached: it runs without its messages' consistency tokens, so its reads"
            + " may miss the writes that the messages follow. Tidemark covers the listeners of"
            + " AbstractMessageListenerContainer (DefaultMessageListenerContainer and"
            + " SimpleMessageListenerContainer).");
  }

  @Override
  public void stop() {
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Just below every registry's and container bean's, so that this starts before them. */
  @Override
  public int getPhase() {
    int lowest = Integer.MAX_VALUE;
    for (JmsListenerEndpointRegistry registry : registries()) {
      lowest = Math.min(lowest, registry.getPhase());
    }
    for (MessageListenerContainer container : containerBeans().values()) {
      lowest = Math.min(lowest, container.getPhase());
    }
    return lowest == Integer.MIN_VALUE ? lowest : lowest - 1;
  }

  /** Each container, named by its registry id or its bean name. */
  private Map<String, MessageListenerContainer> containers() {
    Map<String, MessageListenerContainer> all = new LinkedHashMap<>();
    for (JmsListenerEndpointRegistry registry : registries()) {
      for (String id : registry.getListenerContainerIds()) {
        MessageListenerContainer container = registry.getListenerContainer(id);
        if (container != null) {
          all.put("'" + id + "' of the endpoint registry", container);
        }
      }
    }
    containerBeans().forEach((name, container) -> all.put("bean '" + name + "'", container));
    return all;
  }

  private List<JmsListenerEndpointRegistry> registries() {
    return new ArrayList<>(created(JmsListenerEndpointRegistry.class).values());
  }

  private Map<String, MessageListenerContainer> containerBeans() {
    return created(MessageListenerContainer.class);
  }

  /** The singletons of {@code type} created so far: this must create none. */
  private <T> Map<String, T> created(Class<T> type) {
    Map<String, T> found = new LinkedHashMap<>();
    for (String name : beans.getBeanNamesForType(type, false, false)) {
      Object bean = beans.getSingleton(name);
      if (type.isInstance(bean)) {
        found.put(name, type.cast(bean));
      }
    }
    return found;
  }
}
